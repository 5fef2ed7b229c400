import type { FrameMessages } from "./frame-en";

/** The card frame's Simplified Chinese strings. */
export const frameZhHans: FrameMessages = {
  title: "银行卡信息",
  number: "卡号",
  expiry: "有效期",
  expiryHint: "月/年（MM/YYYY）",
  cvv: "安全码",
  cvvHint: (digits: number) => `${digits} 位数字`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "卡号无效。",
  expiryInvalid: "请按 MM/YYYY 格式输入有效期。",
  expired: "此卡已过期。",
  cvvInvalid: (digits: number) => `请输入 ${digits} 位安全码。`,
  challengeTitle: "请确认您是真人",
  challengeStatus: {
    solving: "请稍候：正在确认此笔付款是否安全…",
    shown: "目前有大量银行卡付款正在此表单上尝试。请完成下方的验证，您的捐款将继续进行。",
    checking: "谢谢。正在核实您的银行卡…",
    failed: "验证未通过，未产生任何扣款。请重试。",
  },
  refused: "此银行卡表单无法在此页面上使用。",
};
