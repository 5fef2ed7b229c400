import { donateZhHans } from "./donate-zh-Hans";
import { donateLaterZhHans } from "./donate-later-zh-Hans";
import type { Messages } from ".";

export { donateZhHans, donateLaterZhHans };

/** The Simplified Chinese catalog, section by section, in en.ts's shape (Chinese has no plural forms). */

export const commonZhHans: Messages["common"] = {
  unavailable: "此表单目前无法使用。如需捐款或订阅，请联系该机构。",
  optional: "选填",
  networkError: "无法连接服务器。请检查网络连接后重试。",
  upstreamDown: "服务目前没有响应。未产生任何扣款；请几分钟后重试。",
  rateLimited: "此连接的尝试次数过多。请等待几分钟后重试。",
  fixErrors: (count: number) => `请修改 ${count} 个字段。`,
  firstName: "名",
  lastName: "姓",
  firstNameRequired: "请输入您的名。",
  lastNameRequired: "请输入您的姓。",
  terms: "使用条款",
  privacy: "隐私政策",
  language: "语言",
};

export const optinZhHans: Messages["optin"] = {
  heading: "接收短信通知",
  intro: (program: string) => `订阅来自 ${program} 的短信。`,
  allRequired: "所有字段均为必填。",
  mobileLabel: "手机号码",
  mobileHint: "美国或加拿大的手机号码，例如 (555) 010-1234。",
  consentLabel: (program: string) => `我同意接收来自 ${program} 的短信。`,
  disclosure: (program: string) =>
    `订阅即表示您同意 ${program} 向您提供的手机号码定期发送自动短信。同意并非任何购买或捐款的条件。短信频率不定。可能产生短信和数据费用。回复 HELP 获取帮助，回复 STOP 取消订阅。请参阅我们的`,
  and: "和",
  submit: "订阅",
  submitting: "正在订阅…",
  textInstead: (keyword: string, shortcode: string) => `或发送 ${keyword} 至 ${shortcode}`,
  mobileRequired: "请输入您的手机号码。",
  mobileInvalid: "请输入 10 位美国或加拿大手机号码，例如 (555) 010-1234。",
  nameTooLong: "请不要超过 100 个字符。",
  consentRequired: "请勾选此框，同意接收短信。",
  successHeading: "订阅成功",
  successBody: (program: string, number: string) =>
    `${program} 将向 ${number} 发送短信。随时回复 HELP 获取帮助，回复 STOP 取消订阅。`,
  rejected: "无法为此号码订阅。它可能已经订阅，或无法接收这些短信。",
  rejoin: (keyword: string, shortcode: string) =>
    `如果您曾回复 STOP，请发送 ${keyword} 至 ${shortcode} 重新订阅。`,
  upstreamDown: "订阅服务目前没有响应。您尚未订阅；请几分钟后重试。",
  failed: "出现问题，您尚未订阅。请重试。",
};

export const goalZhHans: Messages["goal"] = {
  raised: (amount: string) => `已筹得 ${amount}`,
  ofGoal: (goal: string) => `目标 ${goal}`,
  donors: (count: number) => `${count.toLocaleString("zh-Hans")} 位捐款人`,
  barLabel: "目标完成进度",
  barText: (raised: string, goal: string, percent: number) => `${raised} / ${goal}，百分之 ${percent}`,
  unavailable: "活动进度目前无法显示。",
};

export const buttonZhHans: Messages["button"] = {
  label: "捐款",
  close: "关闭",
};

export const wallZhHans: Messages["wall"] = {
  label: "最新捐款",
  anonymous: "匿名",
  credited: (name: string) => `支持 ${name}`,
  empty: "成为第一位捐款人吧。",
  unavailable: "最新捐款目前无法显示。",
  reconnecting: (age: string) => `正在重新连接… 更新于${age}`,
};

export const leaderboardZhHans: Messages["leaderboard"] = {
  teams: "团队排行",
  fundraisers: "筹款人排行",
  ofGoal: (raised: string, goal: string) => `${raised} / ${goal}`,
  raised: (raised: string) => `已筹得 ${raised}`,
  give: "捐款",
  giveTo: (name: string) => `为 ${name} 捐款`,
  empty: "目前还没有人筹得款项。",
  unavailable: "排行榜目前无法显示。",
  reconnecting: (age: string) => `正在重新连接… 更新于${age}`,
};

/** Every section (see en.ts). */
export const zhHans: Messages = {
  common: commonZhHans,
  donate: donateZhHans,
  donateLater: donateLaterZhHans,
  optin: optinZhHans,
  goal: goalZhHans,
  button: buttonZhHans,
  wall: wallZhHans,
  leaderboard: leaderboardZhHans,
};
