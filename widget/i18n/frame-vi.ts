import type { FrameMessages } from "./frame-en";

/** The card frame's Vietnamese strings. */
export const frameVi: FrameMessages = {
  title: "Thông tin thẻ",
  number: "Số thẻ",
  expiry: "Ngày hết hạn",
  expiryHint: "MM/YYYY (tháng/năm)",
  cvv: "Mã bảo mật",
  cvvHint: (digits: number) => `${digits} chữ số`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "Số thẻ không hợp lệ.",
  expiryInvalid: "Nhập ngày hết hạn theo dạng MM/YYYY.",
  expired: "Thẻ đã hết hạn.",
  cvvInvalid: (digits: number) => `Nhập mã bảo mật ${digits} chữ số.`,
  challengeTitle: "Xác nhận bạn là người thật",
  challengeStatus: {
    solving: "Chờ một chút: đang kiểm tra khoản thanh toán này có an toàn không…",
    shown:
      "Hiện có nhiều lượt thanh toán bằng thẻ đang được thử trên biểu mẫu này. Hãy hoàn tất bước kiểm tra bên dưới và khoản quyên góp của bạn sẽ tiếp tục.",
    checking: "Cảm ơn bạn. Đang kiểm tra thẻ…",
    failed: "Bước kiểm tra không đạt nên chưa bị trừ tiền. Hãy thử lại.",
  },
  refused: "Không thể dùng biểu mẫu thẻ này trên trang này.",
};
