import { donateKo } from "./donate-ko";
import { donateLaterKo } from "./donate-later-ko";
import type { Messages } from ".";

export { donateKo, donateLaterKo };

/** The Korean catalog, section by section, in en.ts's shape (Korean has no plural forms). */

export const commonKo: Messages["common"] = {
  unavailable: "지금은 이 양식을 사용할 수 없습니다. 기부하거나 신청하려면 단체에 문의해 주세요.",
  optional: "선택 사항",
  networkError: "서버에 연결할 수 없습니다. 연결 상태를 확인하고 다시 시도해 주세요.",
  upstreamDown: "지금은 서비스가 응답하지 않습니다. 결제된 금액은 없습니다. 몇 분 후에 다시 시도해 주세요.",
  rateLimited: "이 연결에서 시도한 횟수가 너무 많습니다. 몇 분 기다린 후 다시 시도해 주세요.",
  fixErrors: (count: number) => `${count}개 항목을 수정해 주세요.`,
  firstName: "이름",
  lastName: "성",
  firstNameRequired: "이름을 입력하세요.",
  lastNameRequired: "성을 입력하세요.",
  terms: "이용약관",
  privacy: "개인정보 처리방침",
  language: "언어",
};

export const optinKo: Messages["optin"] = {
  heading: "문자 소식 받기",
  intro: (program: string) => `${program}의 문자 메시지를 신청하세요.`,
  allRequired: "모든 항목은 필수입니다.",
  mobileLabel: "휴대폰 번호",
  mobileHint: "미국 또는 캐나다 휴대폰 번호(예: (555) 010-1234).",
  consentLabel: (program: string) => `${program}의 문자 메시지 수신에 동의합니다.`,
  disclosure: (program: string) =>
    `신청하면 입력한 휴대폰 번호로 ${program}에서 보내는 정기 자동 문자 메시지를 받는 데 동의하게 됩니다. 동의는 구매나 기부의 조건이 아닙니다. 메시지 빈도는 달라질 수 있습니다. 메시지 및 데이터 요금이 부과될 수 있습니다. 도움말은 HELP, 수신 거부는 STOP으로 답장하세요. 자세한 내용:`,
  and: "및",
  submit: "신청하기",
  submitting: "신청 중…",
  textInstead: (keyword: string, shortcode: string) => `또는 ${shortcode}번으로 ${keyword} 문자 보내기`,
  mobileRequired: "휴대폰 번호를 입력하세요.",
  mobileInvalid: "미국 또는 캐나다의 10자리 휴대폰 번호를 입력하세요(예: (555) 010-1234).",
  nameTooLong: "100자 이하로 입력하세요.",
  consentRequired: "문자 메시지 수신에 동의하려면 상자를 선택하세요.",
  successHeading: "신청이 완료되었습니다",
  successBody: (program: string, number: string) =>
    `${program}에서 ${number}(으)로 문자를 보냅니다. 언제든지 도움말은 HELP, 수신 거부는 STOP으로 답장하세요.`,
  rejected:
    "이 번호로 신청할 수 없습니다. 이미 신청된 번호이거나 이 메시지를 받을 수 없는 번호일 수 있습니다.",
  rejoin: (keyword: string, shortcode: string) =>
    `전에 STOP으로 답장한 적이 있다면 ${shortcode}번으로 ${keyword}을(를) 보내 다시 신청하세요.`,
  upstreamDown: "지금은 신청 서비스가 응답하지 않습니다. 신청되지 않았습니다. 몇 분 후에 다시 시도해 주세요.",
  failed: "문제가 발생하여 신청되지 않았습니다. 다시 시도해 주세요.",
};

export const goalKo: Messages["goal"] = {
  raised: (amount: string) => `${amount} 모금`,
  ofGoal: (goal: string) => `목표 ${goal}`,
  donors: (count: number) => `기부자 ${count.toLocaleString("ko")}명`,
  barLabel: "목표 달성률",
  barText: (raised: string, goal: string, percent: number) => `${goal} 중 ${raised}, ${percent}퍼센트`,
  unavailable: "지금은 캠페인 진행 상황을 볼 수 없습니다.",
};

export const buttonKo: Messages["button"] = {
  label: "기부하기",
  close: "닫기",
};

export const wallKo: Messages["wall"] = {
  label: "최근 기부",
  anonymous: "익명",
  credited: (name: string) => `${name} 응원`,
  empty: "첫 번째 기부자가 되어 주세요.",
  unavailable: "지금은 최근 기부를 볼 수 없습니다.",
  reconnecting: (age: string) => `다시 연결 중… ${age} 업데이트됨`,
};

export const leaderboardKo: Messages["leaderboard"] = {
  teams: "상위 팀",
  fundraisers: "상위 모금자",
  ofGoal: (raised: string, goal: string) => `${goal} 중 ${raised}`,
  raised: (raised: string) => `${raised} 모금`,
  give: "기부",
  giveTo: (name: string) => `${name}에게 기부하기`,
  empty: "아직 모금한 사람이 없습니다.",
  unavailable: "지금은 순위를 볼 수 없습니다.",
  reconnecting: (age: string) => `다시 연결 중… ${age} 업데이트됨`,
};

/** Every section (see en.ts). */
export const ko: Messages = {
  common: commonKo,
  donate: donateKo,
  donateLater: donateLaterKo,
  optin: optinKo,
  goal: goalKo,
  button: buttonKo,
  wall: wallKo,
  leaderboard: leaderboardKo,
};
