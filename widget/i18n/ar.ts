import { donateAr } from "./donate-ar";
import { donateLaterAr } from "./donate-later-ar";
import type { Messages } from ".";
import { plural } from "./plural";

export { donateAr, donateLaterAr };

/** The Arabic catalog, section by section, in en.ts's shape (Arabic's six plural forms by Intl.PluralRules). */

/** "3 متبرعين", "11 متبرعًا": a count of donors in each of Arabic's plural forms. */
function donors(count: number): string {
  const n = count.toLocaleString("ar");
  return plural("ar", count, {
    zero: `لا متبرعين`,
    one: `متبرع واحد`,
    two: `متبرعان`,
    few: `${n} متبرعين`,
    many: `${n} متبرعًا`,
    other: `${n} متبرع`,
  });
}

export const commonAr: Messages["common"] = {
  unavailable: "هذا النموذج غير متاح الآن. يُرجى التواصل مع المنظمة للتبرع أو الاشتراك.",
  optional: "اختياري",
  networkError: "تعذّر الوصول إلى الخادم. تحقّق من اتصالك وحاول مرة أخرى.",
  upstreamDown: "الخدمة لا تستجيب الآن. لم يُخصم أي مبلغ؛ يُرجى المحاولة مرة أخرى بعد بضع دقائق.",
  rateLimited: "محاولات كثيرة جدًا من هذا الاتصال. يُرجى الانتظار بضع دقائق ثم المحاولة مرة أخرى.",
  fixErrors: (count: number) =>
    plural("ar", count, {
      zero: "يُرجى تصحيح الحقول.",
      one: "يُرجى تصحيح حقل واحد.",
      two: "يُرجى تصحيح حقلين.",
      few: `يُرجى تصحيح ${count} حقول.`,
      many: `يُرجى تصحيح ${count} حقلًا.`,
      other: `يُرجى تصحيح ${count} حقل.`,
    }),
  firstName: "الاسم الأول",
  lastName: "اسم العائلة",
  firstNameRequired: "أدخل اسمك الأول.",
  lastNameRequired: "أدخل اسم عائلتك.",
  terms: "الشروط",
  privacy: "سياسة الخصوصية",
  language: "اللغة",
};

export const optinAr: Messages["optin"] = {
  heading: "احصل على التحديثات برسائل نصية",
  intro: (program: string) => `اشترك في الرسائل النصية من ${program}.`,
  allRequired: "جميع الحقول مطلوبة.",
  mobileLabel: "رقم الهاتف المحمول",
  mobileHint: "رقم هاتف محمول في الولايات المتحدة أو كندا، مثل (555) 010-1234.",
  consentLabel: (program: string) => `أوافق على تلقي رسائل نصية من ${program}.`,
  disclosure: (program: string) =>
    `بالاشتراك، توافق على تلقي رسائل نصية آلية متكررة من ${program} على رقم الهاتف المحمول الذي أدخلته. الموافقة ليست شرطًا لأي شراء أو تبرع. يختلف عدد الرسائل. قد تُطبَّق رسوم الرسائل والبيانات. أرسل HELP للمساعدة، وSTOP للإلغاء. اطّلع على`,
  and: "و",
  submit: "اشترك",
  submitting: "جارٍ الاشتراك…",
  textInstead: (keyword: string, shortcode: string) => `أو أرسل ${keyword} إلى ${shortcode}`,
  mobileRequired: "أدخل رقم هاتفك المحمول.",
  mobileInvalid: "أدخل رقم هاتف محمول من 10 أرقام في الولايات المتحدة أو كندا، مثل (555) 010-1234.",
  nameTooLong: "استخدم 100 حرف أو أقل.",
  consentRequired: "ضع علامة في المربع للموافقة على تلقي الرسائل النصية.",
  successHeading: "تم اشتراكك",
  successBody: (program: string, number: string) =>
    `سترسل ${program} رسائل نصية إلى ${number}. أرسل HELP للمساعدة، وSTOP للإلغاء في أي وقت.`,
  rejected: "تعذّر اشتراك هذا الرقم. ربما يكون مشتركًا بالفعل، أو لا يمكنه تلقي هذه الرسائل.",
  rejoin: (keyword: string, shortcode: string) =>
    `إذا سبق أن أرسلت STOP، فأرسل ${keyword} إلى ${shortcode} للاشتراك من جديد.`,
  upstreamDown: "خدمة الاشتراك لا تستجيب الآن. لم يتم اشتراكك؛ يُرجى المحاولة مرة أخرى بعد بضع دقائق.",
  failed: "حدث خطأ ولم يتم اشتراكك. يُرجى المحاولة مرة أخرى.",
};

export const goalAr: Messages["goal"] = {
  raised: (amount: string) => `تم جمع ${amount}`,
  ofGoal: (goal: string) => `من هدفنا البالغ ${goal}`,
  donors,
  barLabel: "التقدّم نحو الهدف",
  barText: (raised: string, goal: string, percent: number) => `${raised} من ${goal}، ${percent} بالمئة`,
  unavailable: "تقدّم الحملة غير متاح الآن.",
};

export const buttonAr: Messages["button"] = {
  label: "تبرّع",
  close: "إغلاق",
};

export const wallAr: Messages["wall"] = {
  label: "أحدث التبرعات",
  anonymous: "مجهول",
  credited: (name: string) => `لصالح ${name}`,
  empty: "كن أول من يتبرع.",
  unavailable: "أحدث التبرعات غير متاحة الآن.",
  reconnecting: (age: string) => `جارٍ إعادة الاتصال… آخر تحديث ${age}`,
};

export const leaderboardAr: Messages["leaderboard"] = {
  teams: "أفضل الفرق",
  fundraisers: "أفضل جامعي التبرعات",
  ofGoal: (raised: string, goal: string) => `${raised} من ${goal}`,
  raised: (raised: string) => `تم جمع ${raised}`,
  give: "تبرّع",
  giveTo: (name: string) => `تبرّع لـ ${name}`,
  empty: "لم يجمع أحد أي مبلغ بعد.",
  unavailable: "لوحة الصدارة غير متاحة الآن.",
  reconnecting: (age: string) => `جارٍ إعادة الاتصال… آخر تحديث ${age}`,
};

/** Every section (see en.ts). */
export const ar: Messages = {
  common: commonAr,
  donate: donateAr,
  donateLater: donateLaterAr,
  optin: optinAr,
  goal: goalAr,
  button: buttonAr,
  wall: wallAr,
  leaderboard: leaderboardAr,
};
