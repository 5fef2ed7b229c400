import type { FrameMessages } from "./frame-en";

/** The card frame's Korean strings. */
export const frameKo: FrameMessages = {
  title: "카드 정보",
  number: "카드 번호",
  expiry: "유효 기간",
  expiryHint: "MM/YYYY(월/연도)",
  cvv: "보안 코드",
  cvvHint: (digits: number) => `${digits}자리`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "카드 번호가 올바르지 않습니다.",
  expiryInvalid: "유효 기간을 MM/YYYY 형식으로 입력하세요.",
  expired: "카드 유효 기간이 지났습니다.",
  cvvInvalid: (digits: number) => `${digits}자리 보안 코드를 입력하세요.`,
  challengeTitle: "사람인지 확인",
  challengeStatus: {
    solving: "잠시만요. 이 결제가 안전한지 확인하는 중…",
    shown:
      "지금 이 양식에서 많은 카드 결제가 시도되고 있습니다. 아래 확인을 완료하면 기부가 계속 진행됩니다.",
    checking: "감사합니다. 카드를 확인하는 중…",
    failed: "확인을 통과하지 못해 결제되지 않았습니다. 다시 시도하세요.",
  },
  refused: "이 카드 양식은 이 페이지에서 사용할 수 없습니다.",
};
