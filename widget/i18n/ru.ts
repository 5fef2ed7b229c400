import { donateRu } from "./donate-ru";
import { donateLaterRu } from "./donate-later-ru";
import type { Messages } from ".";
import { plural } from "./plural";

export { donateRu, donateLaterRu };

/** The Russian catalog, section by section, in en.ts's shape (one, few and many by Intl.PluralRules). */

export const commonRu: Messages["common"] = {
  unavailable:
    "Эта форма сейчас недоступна. Чтобы сделать пожертвование или подписаться, свяжитесь с организацией.",
  optional: "необязательно",
  networkError: "Не удалось связаться с сервером. Проверьте подключение и попробуйте ещё раз.",
  upstreamDown: "Сервис сейчас не отвечает. Деньги не списаны; попробуйте ещё раз через несколько минут.",
  rateLimited: "Слишком много попыток с этого подключения. Подождите несколько минут и попробуйте ещё раз.",
  fixErrors: (count: number) =>
    plural("ru", count, {
      one: `Исправьте ${count} поле.`,
      few: `Исправьте ${count} поля.`,
      many: `Исправьте ${count} полей.`,
      other: `Исправьте ${count} поля.`,
    }),
  firstName: "Имя",
  lastName: "Фамилия",
  firstNameRequired: "Введите имя.",
  lastNameRequired: "Введите фамилию.",
  terms: "Условиями использования",
  privacy: "Политикой конфиденциальности",
  language: "Язык",
};

export const optinRu: Messages["optin"] = {
  heading: "Новости по SMS",
  intro: (program: string) => `Подпишитесь на SMS от ${program}.`,
  allRequired: "Все поля обязательны.",
  mobileLabel: "Номер мобильного телефона",
  mobileHint: "Мобильный номер в США или Канаде, например (555) 010-1234.",
  consentLabel: (program: string) => `Я согласен(на) получать SMS от ${program}.`,
  disclosure: (program: string) =>
    `Подписываясь, вы соглашаетесь получать регулярные автоматические SMS от ${program} на указанный мобильный номер. Согласие не является условием покупки или пожертвования. Частота сообщений может меняться. Может взиматься плата за сообщения и передачу данных. Ответьте HELP, чтобы получить помощь, или STOP, чтобы отписаться. Ознакомьтесь с нашими`,
  and: "и",
  submit: "Подписаться",
  submitting: "Оформляем подписку…",
  textInstead: (keyword: string, shortcode: string) => `или отправьте ${keyword} на номер ${shortcode}`,
  mobileRequired: "Введите номер мобильного телефона.",
  mobileInvalid: "Введите 10-значный мобильный номер в США или Канаде, например (555) 010-1234.",
  nameTooLong: "Не более 100 символов.",
  consentRequired: "Отметьте флажок, чтобы согласиться на получение SMS.",
  successHeading: "Вы подписаны",
  successBody: (program: string, number: string) =>
    `${program} будет присылать SMS на номер ${number}. В любой момент ответьте HELP, чтобы получить помощь, или STOP, чтобы отписаться.`,
  rejected: "Не удалось подписать этот номер. Возможно, он уже подписан или не может получать эти сообщения.",
  rejoin: (keyword: string, shortcode: string) =>
    `Если вы когда-то ответили STOP, отправьте ${keyword} на номер ${shortcode}, чтобы подписаться снова.`,
  upstreamDown:
    "Сервис подписки сейчас не отвечает. Подписка не оформлена; попробуйте ещё раз через несколько минут.",
  failed: "Что-то пошло не так, и подписка не оформлена. Попробуйте ещё раз.",
};

export const goalRu: Messages["goal"] = {
  raised: (amount: string) => `Собрано ${amount}`,
  ofGoal: (goal: string) => `из нашей цели ${goal}`,
  donors: (count: number) => {
    const n = count.toLocaleString("ru");
    return plural("ru", count, {
      one: `${n} жертвователь`,
      few: `${n} жертвователя`,
      many: `${n} жертвователей`,
      other: `${n} жертвователя`,
    });
  },
  barLabel: "Продвижение к цели",
  barText: (raised: string, goal: string, percent: number) => `${raised} из ${goal}, ${percent} процентов`,
  unavailable: "Ход кампании сейчас недоступен.",
};

export const buttonRu: Messages["button"] = {
  label: "Пожертвовать",
  close: "Закрыть",
};

export const wallRu: Messages["wall"] = {
  label: "Последние пожертвования",
  anonymous: "Аноним",
  credited: (name: string) => `в поддержку: ${name}`,
  empty: "Станьте первым, кто сделает пожертвование.",
  unavailable: "Последние пожертвования сейчас недоступны.",
  reconnecting: (age: string) => `Переподключение… обновлено ${age}`,
};

export const leaderboardRu: Messages["leaderboard"] = {
  teams: "Лучшие команды",
  fundraisers: "Лучшие сборщики",
  ofGoal: (raised: string, goal: string) => `${raised} из ${goal}`,
  raised: (raised: string) => `Собрано ${raised}`,
  give: "Пожертвовать",
  giveTo: (name: string) => `Пожертвовать: ${name}`,
  empty: "Пока никто ничего не собрал.",
  unavailable: "Рейтинг сейчас недоступен.",
  reconnecting: (age: string) => `Переподключение… обновлено ${age}`,
};

/** Every section (see en.ts). */
export const ru: Messages = {
  common: commonRu,
  donate: donateRu,
  donateLater: donateLaterRu,
  optin: optinRu,
  goal: goalRu,
  button: buttonRu,
  wall: wallRu,
  leaderboard: leaderboardRu,
};
