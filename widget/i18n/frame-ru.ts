import type { FrameMessages } from "./frame-en";
import { plural } from "./plural";

/** The card frame's Russian strings. */
export const frameRu: FrameMessages = {
  title: "Данные карты",
  number: "Номер карты",
  expiry: "Срок действия",
  expiryHint: "ММ/ГГГГ",
  cvv: "Код безопасности",
  cvvHint: (digits: number) =>
    plural("ru", digits, {
      one: `${digits} цифра`,
      few: `${digits} цифры`,
      many: `${digits} цифр`,
      other: `${digits} цифры`,
    }),
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "Неверный номер карты.",
  expiryInvalid: "Введите срок действия в формате ММ/ГГГГ.",
  expired: "Срок действия карты истёк.",
  cvvInvalid: (digits: number) => `Введите код безопасности из ${digits} цифр.`,
  challengeTitle: "Подтвердите, что вы человек",
  challengeStatus: {
    solving: "Минуту: проверяем, что этот платёж безопасен…",
    shown:
      "Сейчас через эту форму пытаются провести много платежей картами. Пройдите проверку ниже, и пожертвование продолжится.",
    checking: "Спасибо. Проверяем карту…",
    failed: "Проверка не пройдена, деньги не списаны. Попробуйте ещё раз.",
  },
  refused: "Эту форму карты нельзя использовать на этой странице.",
};
