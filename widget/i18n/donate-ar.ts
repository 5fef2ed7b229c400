import type { DonateMessages } from "./donate-en";
import { plural } from "./plural";

/** The `donate` section of the Arabic catalog (same shape as donate-en.ts). */
export const donateAr: DonateMessages = {
  heading: "تبرّع الآن",
  loading: "جارٍ تحميل نموذج التبرع…",
  frequencyLegend: "عدد المرات",
  frequency: { once: "مرة واحدة", monthly: "شهريًا", quarterly: "كل ثلاثة أشهر", annually: "سنويًا" },
  per: { once: "", monthly: "شهريًا", quarterly: "كل ثلاثة أشهر", annually: "سنويًا" },
  amountLegend: "المبلغ",
  otherAmount: "غير ذلك",
  otherAmountLabel: "مبلغ آخر",
  amountRange: (min: string, max: string) => `بين ${min} و${max}.`,
  coverFee: (fee: string) => `أضف ${fee} لتغطية رسوم المعالجة`,
  coverFeeAny: "أضف رسوم المعالجة إلى تبرعي",
  feeIncluded: (fee: string) => `يشمل ${fee} لتغطية رسوم المعالجة.`,
  feeIncludedAny: "يشمل رسوم المعالجة.",
  peerLabel: "تبرّع دعمًا لجامع تبرعات أو فريق",
  peerHint: "اكتب اسمًا، ثم اختر من القائمة.",
  peerSearching: "جارٍ البحث…",
  peerNone: "لا يوجد جامع تبرعات أو فريق مطابق.",
  peerCount: (count: number) =>
    plural("ar", count, {
      zero: "لا نتائج.",
      one: "نتيجة واحدة.",
      two: "نتيجتان.",
      few: `${count} نتائج.`,
      many: `${count} نتيجة.`,
      other: `${count} نتيجة.`,
    }),
  peerTeam: "فريق",
  peerTeamWord: /فريق|\bteam\b/i,
  peerSupporting: (name: string) => `تبرعك يدعم ${name}.`,
  peerRaised: (raised: string, goal: string | null) =>
    goal ? `تم جمع ${raised} من ${goal}.` : `تم جمع ${raised} حتى الآن.`,
  peerRemove: "إزالة",
  peerFailed: "تعذّر تحميل جامع التبرعات أو الفريق الذي تذكره هذه الصفحة.",
  peerRetry: "حاول مرة أخرى",
  steps: ["الخطوة 1 من 3: تبرعك", "الخطوة 2 من 3: معلوماتك", "الخطوة 3 من 3: الدفع"],
  next: "التالي",
  back: "رجوع",
  submit: (total: string, per: string) => (per ? `تبرّع بـ ${total} ${per}` : `تبرّع بـ ${total}`),
  submitting: "جارٍ معالجة تبرعك…",
  errors: {
    amount: "اختر مبلغًا أو أدخله.",
    amountRange: (min: string, max: string) => `أدخل مبلغًا بين ${min} و${max}.`,
    peer: "اختر جامع تبرعات أو فريقًا من القائمة.",
    field: "تحقّق من هذا الحقل.",
    required: "املأ هذا الحقل.",
  },
};
