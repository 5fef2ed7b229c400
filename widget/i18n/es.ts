import { donateEs } from "./donate-es";
import { donateLaterEs } from "./donate-later-es";

export { donateEs, donateLaterEs };
import type { Messages } from ".";

/** The Spanish catalog, section by section, in en.ts's shape. */

export const commonEs: Messages["common"] = {
  unavailable:
    "Este formulario no está disponible en este momento. Comuníquese con la organización para donar o suscribirse.",
  optional: "opcional",
  networkError: "No pudimos conectar con el servidor. Revise su conexión e inténtelo de nuevo.",
  upstreamDown:
    "El servicio no responde en este momento. No se hizo ningún cargo; inténtelo de nuevo en unos minutos.",
  rateLimited: "Demasiados intentos desde esta conexión. Espere unos minutos y vuelva a intentarlo.",
  fixErrors: (count: number) => (count === 1 ? "Corrija 1 campo." : `Corrija ${count} campos.`),
  firstName: "Nombre",
  lastName: "Apellido",
  firstNameRequired: "Escriba su nombre.",
  lastNameRequired: "Escriba su apellido.",
  terms: "Términos",
  privacy: "Política de privacidad",
  language: "Idioma",
};

export const optinEs: Messages["optin"] = {
  heading: "Reciba mensajes de texto",
  intro: (program: string) => `Suscríbase a los mensajes de texto de ${program}.`,
  allRequired: "Todos los campos son obligatorios.",
  mobileLabel: "Número de celular",
  mobileHint: "Un celular de EE. UU. o Canadá, como (555) 010-1234.",
  consentLabel: (program: string) => `Acepto recibir mensajes de texto de ${program}.`,
  disclosure: (program: string) =>
    `Al suscribirse, acepta recibir mensajes de texto automatizados y recurrentes de ${program} en el número de celular indicado. El consentimiento no es condición para ninguna compra o donación. La frecuencia de los mensajes varía. Pueden aplicarse tarifas de mensajes y datos. Responda HELP para obtener ayuda o STOP para cancelar. Consulte los`,
  and: "y la",
  submit: "Suscribirme",
  submitting: "Suscribiendo…",
  textInstead: (keyword: string, shortcode: string) => `o envíe ${keyword} al ${shortcode}`,
  mobileRequired: "Ingrese su número de celular.",
  mobileInvalid: "Ingrese un número de celular de EE. UU. o Canadá de 10 dígitos, como (555) 010-1234.",
  nameTooLong: "Use 100 caracteres o menos.",
  consentRequired: "Marque la casilla para aceptar recibir mensajes de texto.",
  successHeading: "Ya está suscrito",
  successBody: (program: string, number: string) =>
    `${program} enviará mensajes al ${number}. Responda HELP para obtener ayuda o STOP para cancelar en cualquier momento.`,
  rejected:
    "No pudimos suscribir este número. Puede que ya esté suscrito o que no pueda recibir estos mensajes.",
  rejoin: (keyword: string, shortcode: string) =>
    `Si alguna vez respondió STOP, envíe ${keyword} al ${shortcode} para volver a suscribirse.`,
  upstreamDown:
    "El servicio de suscripción no responde en este momento. No quedó suscrito; inténtelo de nuevo en unos minutos.",
  failed: "Algo salió mal y no quedó suscrito. Inténtelo de nuevo.",
};

export const goalEs: Messages["goal"] = {
  raised: (amount: string) => `${amount} recaudados`,
  ofGoal: (goal: string) => `de nuestra meta de ${goal}`,
  donors: (count: number) => (count === 1 ? "1 donante" : `${count.toLocaleString("es-US")} donantes`),
  barLabel: "Avance hacia la meta",
  barText: (raised: string, goal: string, percent: number) => `${raised} de ${goal}, ${percent} por ciento`,
  unavailable: "El avance de la campaña no está disponible en este momento.",
};

export const buttonEs: Messages["button"] = {
  label: "Donar",
  close: "Cerrar",
};

export const wallEs: Messages["wall"] = {
  label: "Últimos donativos",
  anonymous: "Anónimo",
  credited: (name: string) => `para ${name}`,
  empty: "Sea la primera persona en donar.",
  unavailable: "Los últimos donativos no están disponibles en este momento.",
  reconnecting: (age: string) => `Reconectando… actualizado ${age}`,
};

export const leaderboardEs: Messages["leaderboard"] = {
  teams: "Equipos destacados",
  fundraisers: "Recaudadores destacados",
  ofGoal: (raised: string, goal: string) => `${raised} de ${goal}`,
  raised: (raised: string) => `${raised} recaudados`,
  give: "Donar",
  giveTo: (name: string) => `Donar a ${name}`,
  empty: "Nadie ha recaudado nada todavía.",
  unavailable: "La clasificación no está disponible en este momento.",
  reconnecting: (age: string) => `Reconectando… actualizado ${age}`,
};

/** Every section (see en.ts). */
export const es: Messages = {
  common: commonEs,
  donate: donateEs,
  donateLater: donateLaterEs,
  optin: optinEs,
  goal: goalEs,
  button: buttonEs,
  wall: wallEs,
  leaderboard: leaderboardEs,
};
