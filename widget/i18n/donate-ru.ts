import type { DonateMessages } from "./donate-en";
import { plural } from "./plural";

/** The `donate` section of the Russian catalog (same shape as donate-en.ts). */
export const donateRu: DonateMessages = {
  heading: "Сделать пожертвование",
  loading: "Загружаем форму пожертвования…",
  frequencyLegend: "Как часто",
  frequency: { once: "Один раз", monthly: "Ежемесячно", quarterly: "Ежеквартально", annually: "Ежегодно" },
  per: { once: "", monthly: "в месяц", quarterly: "в квартал", annually: "в год" },
  amountLegend: "Сумма",
  otherAmount: "Другая",
  otherAmountLabel: "Другая сумма",
  amountRange: (min: string, max: string) => `От ${min} до ${max}.`,
  coverFee: (fee: string) => `Добавить ${fee}, чтобы покрыть комиссию за обработку`,
  coverFeeAny: "Добавить комиссию за обработку к моему пожертвованию",
  feeIncluded: (fee: string) => `Включает ${fee} на покрытие комиссии за обработку.`,
  feeIncludedAny: "Включает комиссию за обработку.",
  peerLabel: "Пожертвовать в поддержку сборщика или команды",
  peerHint: "Введите имя и выберите из списка.",
  peerSearching: "Ищем…",
  peerNone: "Нет подходящих сборщиков или команд.",
  peerCount: (count: number) =>
    plural("ru", count, {
      one: `${count} совпадение.`,
      few: `${count} совпадения.`,
      many: `${count} совпадений.`,
      other: `${count} совпадения.`,
    }),
  peerTeam: "Команда",
  peerTeamWord: /(^|\s)(команда|team)(\s|$)/i,
  peerSupporting: (name: string) => `Ваше пожертвование поддерживает: ${name}.`,
  peerRaised: (raised: string, goal: string | null) =>
    goal ? `Собрано ${raised} из ${goal}.` : `Пока собрано ${raised}.`,
  peerRemove: "Убрать",
  peerFailed: "Не удалось загрузить сборщика или команду, указанных на этой странице.",
  peerRetry: "Повторить",
  steps: ["Шаг 1 из 3: Ваше пожертвование", "Шаг 2 из 3: О вас", "Шаг 3 из 3: Оплата"],
  next: "Далее",
  back: "Назад",
  submit: (total: string, per: string) => (per ? `Пожертвовать ${total} ${per}` : `Пожертвовать ${total}`),
  submitting: "Обрабатываем ваше пожертвование…",
  errors: {
    amount: "Выберите или введите сумму.",
    amountRange: (min: string, max: string) => `Введите сумму от ${min} до ${max}.`,
    peer: "Выберите сборщика или команду из списка.",
    field: "Проверьте это поле.",
    required: "Заполните это поле.",
  },
};
