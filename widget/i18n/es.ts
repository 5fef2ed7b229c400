import type { en } from "./en";

export const es: typeof en = {
  common: {
    unavailable:
      "Este formulario no está disponible en este momento. Comuníquese con la organización para donar o suscribirse.",
    required: "Obligatorio",
    optional: "opcional",
    sending: "Enviando…",
    tryAgain: "Intentar de nuevo",
    networkError: "No pudimos conectar con el servidor. Revise su conexión e inténtelo de nuevo.",
    upstreamDown:
      "El servicio no responde en este momento. No se hizo ningún cargo; inténtelo de nuevo en unos minutos.",
    rateLimited: "Demasiados intentos desde esta conexión. Espere unos minutos y vuelva a intentarlo.",
    fixErrors: (count: number) => (count === 1 ? "Corrija 1 campo." : `Corrija ${count} campos.`),
  },
  donate: {},
  optin: {},
};
