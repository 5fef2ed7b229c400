import { donateVi } from "./donate-vi";
import { donateLaterVi } from "./donate-later-vi";
import type { Messages } from ".";

export { donateVi, donateLaterVi };

/** The Vietnamese catalog, section by section, in en.ts's shape (Vietnamese has no plural forms). */

export const commonVi: Messages["common"] = {
  unavailable: "Biểu mẫu này hiện không dùng được. Vui lòng liên hệ tổ chức để quyên góp hoặc đăng ký.",
  optional: "không bắt buộc",
  networkError: "Không kết nối được với máy chủ. Hãy kiểm tra kết nối rồi thử lại.",
  upstreamDown: "Dịch vụ hiện không phản hồi. Chưa có khoản phí nào bị trừ; vui lòng thử lại sau vài phút.",
  rateLimited: "Có quá nhiều lần thử từ kết nối này. Vui lòng đợi vài phút rồi thử lại.",
  fixErrors: (count: number) => `Vui lòng sửa ${count} trường.`,
  firstName: "Tên",
  lastName: "Họ",
  firstNameRequired: "Nhập tên của bạn.",
  lastNameRequired: "Nhập họ của bạn.",
  terms: "Điều khoản",
  privacy: "Chính sách quyền riêng tư",
  language: "Ngôn ngữ",
};

export const optinVi: Messages["optin"] = {
  heading: "Nhận tin nhắn cập nhật",
  intro: (program: string) => `Đăng ký nhận tin nhắn văn bản từ ${program}.`,
  allRequired: "Tất cả các trường đều bắt buộc.",
  mobileLabel: "Số điện thoại di động",
  mobileHint: "Số di động ở Hoa Kỳ hoặc Canada, ví dụ (555) 010-1234.",
  consentLabel: (program: string) => `Tôi đồng ý nhận tin nhắn văn bản từ ${program}.`,
  disclosure: (program: string) =>
    `Khi đăng ký, bạn đồng ý nhận tin nhắn văn bản tự động định kỳ từ ${program} tại số di động đã cung cấp. Việc đồng ý không phải là điều kiện để mua hàng hay quyên góp. Tần suất tin nhắn thay đổi. Có thể áp dụng phí tin nhắn và dữ liệu. Trả lời HELP để được trợ giúp, STOP để hủy. Xem`,
  and: "và",
  submit: "Đăng ký",
  submitting: "Đang đăng ký…",
  textInstead: (keyword: string, shortcode: string) => `hoặc nhắn ${keyword} đến ${shortcode}`,
  mobileRequired: "Nhập số điện thoại di động của bạn.",
  mobileInvalid: "Nhập số di động 10 chữ số ở Hoa Kỳ hoặc Canada, ví dụ (555) 010-1234.",
  nameTooLong: "Dùng tối đa 100 ký tự.",
  consentRequired: "Đánh dấu vào ô để đồng ý nhận tin nhắn văn bản.",
  successHeading: "Bạn đã đăng ký",
  successBody: (program: string, number: string) =>
    `${program} sẽ nhắn tin đến ${number}. Trả lời HELP để được trợ giúp, STOP để hủy bất cứ lúc nào.`,
  rejected:
    "Chúng tôi không đăng ký được số này. Số này có thể đã đăng ký, hoặc không nhận được các tin nhắn này.",
  rejoin: (keyword: string, shortcode: string) =>
    `Nếu bạn từng trả lời STOP, hãy nhắn ${keyword} đến ${shortcode} để đăng ký lại.`,
  upstreamDown: "Dịch vụ đăng ký hiện không phản hồi. Bạn chưa được đăng ký; vui lòng thử lại sau vài phút.",
  failed: "Đã xảy ra lỗi và bạn chưa được đăng ký. Vui lòng thử lại.",
};

export const goalVi: Messages["goal"] = {
  raised: (amount: string) => `Đã quyên được ${amount}`,
  ofGoal: (goal: string) => `trên mục tiêu ${goal}`,
  donors: (count: number) => `${count.toLocaleString("vi")} nhà hảo tâm`,
  barLabel: "Tiến độ đạt mục tiêu",
  barText: (raised: string, goal: string, percent: number) => `${raised} trên ${goal}, ${percent} phần trăm`,
  unavailable: "Tiến độ chiến dịch hiện không hiển thị được.",
};

export const buttonVi: Messages["button"] = {
  label: "Quyên góp",
  close: "Đóng",
};

export const wallVi: Messages["wall"] = {
  label: "Các khoản quyên góp mới nhất",
  anonymous: "Ẩn danh",
  credited: (name: string) => `cho ${name}`,
  empty: "Hãy là người đầu tiên quyên góp.",
  unavailable: "Các khoản quyên góp mới nhất hiện không hiển thị được.",
  reconnecting: (age: string) => `Đang kết nối lại… cập nhật ${age}`,
};

export const leaderboardVi: Messages["leaderboard"] = {
  teams: "Các đội dẫn đầu",
  fundraisers: "Người gây quỹ dẫn đầu",
  ofGoal: (raised: string, goal: string) => `${raised} trên ${goal}`,
  raised: (raised: string) => `Đã quyên được ${raised}`,
  give: "Quyên góp",
  giveTo: (name: string) => `Quyên góp cho ${name}`,
  empty: "Chưa ai quyên được khoản nào.",
  unavailable: "Bảng xếp hạng hiện không hiển thị được.",
  reconnecting: (age: string) => `Đang kết nối lại… cập nhật ${age}`,
};

/** Every section (see en.ts). */
export const vi: Messages = {
  common: commonVi,
  donate: donateVi,
  donateLater: donateLaterVi,
  optin: optinVi,
  goal: goalVi,
  button: buttonVi,
  wall: wallVi,
  leaderboard: leaderboardVi,
};
