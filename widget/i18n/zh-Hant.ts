import { donateZhHant } from "./donate-zh-Hant";
import { donateLaterZhHant } from "./donate-later-zh-Hant";
import type { Messages } from ".";

export { donateZhHant, donateLaterZhHant };

/** The Traditional Chinese catalog, section by section, in en.ts's shape (Chinese has no plural forms). */

export const commonZhHant: Messages["common"] = {
  unavailable: "此表單目前無法使用。如需捐款或訂閱，請聯絡該機構。",
  optional: "選填",
  networkError: "無法連線至伺服器。請檢查網路連線後再試一次。",
  upstreamDown: "服務目前沒有回應。未產生任何扣款；請幾分鐘後再試一次。",
  rateLimited: "此連線的嘗試次數過多。請等候幾分鐘後再試一次。",
  fixErrors: (count: number) => `請修正 ${count} 個欄位。`,
  firstName: "名字",
  lastName: "姓氏",
  firstNameRequired: "請輸入您的名字。",
  lastNameRequired: "請輸入您的姓氏。",
  terms: "使用條款",
  privacy: "隱私權政策",
  language: "語言",
};

export const optinZhHant: Messages["optin"] = {
  heading: "接收簡訊通知",
  intro: (program: string) => `訂閱來自 ${program} 的簡訊。`,
  allRequired: "所有欄位皆為必填。",
  mobileLabel: "手機號碼",
  mobileHint: "美國或加拿大的手機號碼，例如 (555) 010-1234。",
  consentLabel: (program: string) => `我同意接收來自 ${program} 的簡訊。`,
  disclosure: (program: string) =>
    `訂閱即表示您同意 ${program} 向您提供的手機號碼定期傳送自動簡訊。同意並非任何購買或捐款的條件。簡訊頻率不定。可能產生簡訊及數據費用。回覆 HELP 取得協助，回覆 STOP 取消訂閱。請參閱我們的`,
  and: "及",
  submit: "訂閱",
  submitting: "訂閱中…",
  textInstead: (keyword: string, shortcode: string) => `或傳送 ${keyword} 至 ${shortcode}`,
  mobileRequired: "請輸入您的手機號碼。",
  mobileInvalid: "請輸入 10 位數的美國或加拿大手機號碼，例如 (555) 010-1234。",
  nameTooLong: "請勿超過 100 個字元。",
  consentRequired: "請勾選此方塊，同意接收簡訊。",
  successHeading: "訂閱成功",
  successBody: (program: string, number: string) =>
    `${program} 將傳送簡訊至 ${number}。隨時回覆 HELP 取得協助，回覆 STOP 取消訂閱。`,
  rejected: "無法為此號碼訂閱。它可能已經訂閱，或無法接收這些簡訊。",
  rejoin: (keyword: string, shortcode: string) =>
    `如果您曾回覆 STOP，請傳送 ${keyword} 至 ${shortcode} 重新訂閱。`,
  upstreamDown: "訂閱服務目前沒有回應。您尚未訂閱；請幾分鐘後再試一次。",
  failed: "發生問題，您尚未訂閱。請再試一次。",
};

export const goalZhHant: Messages["goal"] = {
  raised: (amount: string) => `已募得 ${amount}`,
  ofGoal: (goal: string) => `目標 ${goal}`,
  donors: (count: number) => `${count.toLocaleString("zh-Hant")} 位捐款人`,
  barLabel: "目標達成進度",
  barText: (raised: string, goal: string, percent: number) => `${raised} / ${goal}，百分之 ${percent}`,
  unavailable: "活動進度目前無法顯示。",
};

export const buttonZhHant: Messages["button"] = {
  label: "捐款",
  close: "關閉",
};

export const wallZhHant: Messages["wall"] = {
  label: "最新捐款",
  anonymous: "匿名",
  credited: (name: string) => `支持 ${name}`,
  empty: "成為第一位捐款人吧。",
  unavailable: "最新捐款目前無法顯示。",
  reconnecting: (age: string) => `重新連線中… 更新於${age}`,
};

export const leaderboardZhHant: Messages["leaderboard"] = {
  teams: "團隊排行",
  fundraisers: "募款人排行",
  ofGoal: (raised: string, goal: string) => `${raised} / ${goal}`,
  raised: (raised: string) => `已募得 ${raised}`,
  give: "捐款",
  giveTo: (name: string) => `為 ${name} 捐款`,
  empty: "目前還沒有人募得款項。",
  unavailable: "排行榜目前無法顯示。",
  reconnecting: (age: string) => `重新連線中… 更新於${age}`,
};

/** Every section (see en.ts). */
export const zhHant: Messages = {
  common: commonZhHant,
  donate: donateZhHant,
  donateLater: donateLaterZhHant,
  optin: optinZhHant,
  goal: goalZhHant,
  button: buttonZhHant,
  wall: wallZhHant,
  leaderboard: leaderboardZhHant,
};
