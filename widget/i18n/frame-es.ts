import type { FrameMessages } from "./frame-en";

/** The card frame's Spanish strings. */
export const frameEs: FrameMessages = {
  title: "Datos de la tarjeta",
  number: "Número de tarjeta",
  expiry: "Fecha de vencimiento",
  expiryHint: "MM/AAAA",
  cvv: "Código de seguridad",
  cvvHint: (digits: number) => `${digits} dígitos`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "El número de tarjeta no es válido.",
  expiryInvalid: "Escriba la fecha de vencimiento como MM/AAAA.",
  expired: "La tarjeta está vencida.",
  cvvInvalid: (digits: number) => `Escriba el código de seguridad de ${digits} dígitos.`,
  challengeTitle: "Confirme que es una persona",
  challengeStatus: {
    solving: "Un momento: comprobando que este pago es seguro…",
    shown:
      "Ahora mismo se están probando muchos pagos con tarjeta en este formulario. Complete la verificación de abajo y su donación continuará.",
    checking: "Gracias. Verificando su tarjeta…",
    failed: "La verificación no se superó, así que no se cobró nada. Inténtelo de nuevo.",
  },
  refused: "Este formulario de tarjeta no se puede usar en esta página.",
};
