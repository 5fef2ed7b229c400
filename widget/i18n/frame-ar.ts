import type { FrameMessages } from "./frame-en";

/** The card frame's Arabic strings: its labels read right to left, its digits stay left to right (frame.css). */
export const frameAr: FrameMessages = {
  title: "بيانات البطاقة",
  number: "رقم البطاقة",
  expiry: "تاريخ الانتهاء",
  expiryHint: "MM/YYYY (الشهر/السنة)",
  cvv: "رمز الأمان",
  cvvHint: (digits: number) => `${digits} أرقام`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "رقم البطاقة غير صالح.",
  expiryInvalid: "أدخل تاريخ الانتهاء بالصيغة MM/YYYY.",
  expired: "انتهت صلاحية البطاقة.",
  cvvInvalid: (digits: number) => `أدخل رمز الأمان المكوّن من ${digits} أرقام.`,
  challengeTitle: "أكّد أنك إنسان",
  challengeStatus: {
    solving: "لحظة من فضلك: نتحقق من أمان هذا الدفع…",
    shown: "تجري الآن محاولات دفع كثيرة بالبطاقات على هذا النموذج. أكمل التحقق أدناه وسيستمر تبرعك.",
    checking: "شكرًا لك. جارٍ التحقق من بطاقتك…",
    failed: "لم يُجتز التحقق، لذا لم يُخصم أي مبلغ. حاول مرة أخرى.",
  },
  refused: "لا يمكن استخدام نموذج البطاقة هذا في هذه الصفحة.",
};
