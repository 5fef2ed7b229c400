import type { FrameMessages } from "./frame-en";

/** The card frame's Traditional Chinese strings. */
export const frameZhHant: FrameMessages = {
  title: "信用卡資料",
  number: "卡號",
  expiry: "有效期限",
  expiryHint: "月/年（MM/YYYY）",
  cvv: "安全碼",
  cvvHint: (digits: number) => `${digits} 位數字`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "卡號無效。",
  expiryInvalid: "請依 MM/YYYY 格式輸入有效期限。",
  expired: "此卡已過期。",
  cvvInvalid: (digits: number) => `請輸入 ${digits} 位數安全碼。`,
  challengeTitle: "請確認您是真人",
  challengeStatus: {
    solving: "請稍候：正在確認此筆付款是否安全…",
    shown: "目前有大量信用卡付款正在此表單上嘗試。請完成下方的驗證，您的捐款將繼續進行。",
    checking: "謝謝。正在確認您的卡片…",
    failed: "驗證未通過，未產生任何扣款。請再試一次。",
  },
  refused: "此信用卡表單無法在此頁面上使用。",
};
