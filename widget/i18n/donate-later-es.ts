import type { DonateLaterMessages } from "./donate-later-en";

/** The `donateLater` section of the Spanish catalog (same shape as donate-later-en.ts). */
export const donateLaterEs: DonateLaterMessages = {
  monthlyPrompt: (amount: string) => `¿Prefiere donar ${amount} al mes?`,
  monthlyPromptWhy: "Las donaciones mensuales nos permiten planificar.",
  monthlyYes: (amount: string) => `Sí, ${amount} al mes`,
  monthlyNo: (amount: string) => `No, donar ${amount} una vez`,
  donorLegend: "Sus datos",
  fullName: "Nombre completo",
  email: "Correo electrónico",
  phone: "Teléfono",
  street: "Dirección",
  city: "Ciudad",
  state: "Estado o provincia",
  country: "País",
  zip: "Código ZIP",
  postalCode: "Código postal",
  cardLegend: "Tarjeta",
  cardFrameTitle: "Datos de la tarjeta",
  cardFrameFailed:
    "No se pudo cargar el formulario de la tarjeta. Vuelva a cargar la página o done de otra manera.",
  optionsLegend: "Opciones",
  anonymous: "Hacer mi donación anónima",
  pledgeWall: "Mostrar mi donación en el muro de promesas",
  memo: "Mensaje",
  dedicate: "Dedicar mi donación a alguien",
  dedicationKind: "Dedicatoria",
  dedicationKinds: { honor: "En honor de", memory: "En memoria de" },
  dedicationName: "Su nombre",
  dedicationEmail: "Avisar por correo a alguien de mi donación",
  smsOptIn: (program: string) => `Quiero recibir mensajes de texto de ${program}`,
  smsDisclosure: (program: string) =>
    `Opcional. Al marcar esta casilla acepta recibir mensajes de texto automáticos y recurrentes de ${program} en el teléfono indicado arriba. El consentimiento no es una condición para donar. La frecuencia de los mensajes varía. Pueden aplicarse tarifas de mensajes y datos. Responda HELP para obtener ayuda y STOP para cancelar.`,
  smsProgramFallback: "esta organización",
  errors: {
    email: "Escriba un correo electrónico como nombre@ejemplo.org.",
    phone: "Escriba un número de teléfono de EE. UU. o Canadá.",
    smsPhone: "Escriba su número de celular para recibir mensajes de texto.",
    zip: "Escriba un código ZIP como 12345.",
    postalCode: "Escriba un código postal.",
    country: "Elija un país.",
    street: "Acorte la dirección.",
    city: "Acorte la ciudad.",
    state: "Acorte el estado o la provincia.",
    memo: (max: number) => `El mensaje debe tener menos de ${max} caracteres.`,
    dedicationName: "Escriba el nombre de la persona a quien honra o recuerda su donación.",
    dedicationNameInvalid: (max: number) => `Escriba un nombre de ${max} caracteres como máximo, sin < ni >.`,
    dedicationTooLong: "Acorte el mensaje o la dedicatoria: juntos son demasiado largos.",
    card: "Revise los datos de la tarjeta.",
  },
  outcome: {
    successTitle: "¡Gracias!",
    success: (amount: string, per: string) =>
      per ? `Su donación de ${amount} ${per} se realizó.` : `Su donación de ${amount} se realizó.`,
    transaction: "Número de transacción",
    dedicated: {
      honor: (name: string) => `En honor de ${name}.`,
      memory: (name: string) => `En memoria de ${name}.`,
    },
    again: "Hacer otra donación",
    declined:
      "Su tarjeta fue rechazada, así que no se hizo ningún cargo. Revise los datos de la tarjeta o use otra.",
    paymentFailed: "No se pudo procesar el pago, así que no se hizo ningún cargo. Intente con otra tarjeta.",
    pendingTitle: "No pudimos confirmar su donación",
    pending:
      "Es posible que se haya realizado, así que no vuelva a donar. Si se comunica con la organización, deles esta referencia:",
    reference: "Referencia",
    asking: "Estamos consultando con el servicio de pagos; esta página se actualizará sola.",
    notFound: "Ya no podemos consultar esta donación. Dé esta referencia a la organización.",
    gaveUp: "Todavía no podemos confirmarla. Dé esta referencia a la organización antes de volver a donar.",
    notCharged: "Su donación no se realizó, así que no se hizo ningún cargo. Puede intentarlo de nuevo.",
    inProgress: "Su donación todavía se está procesando. Espere un momento y vuelva a intentarlo.",
    rateLimited:
      "Demasiadas donaciones desde esta red en este momento. Vuelva a intentarlo en un minuto, o desactive el wifi.",
    checking:
      "Comprobando… Se rechazaron muchas tarjetas en esta red hace poco; lo volveremos a intentar solos. Si tarda, vuelva a intentarlo en un minuto, o desactive el wifi.",
    tooManyDeclines:
      "Demasiadas tarjetas rechazadas desde esta red, así que no se hizo ningún cargo. Vuelva a intentarlo más tarde.",
    invalidPeer: "Ese recaudador o equipo no forma parte de esta campaña. Elija otro o quítelo.",
    failed: "Algo salió mal de nuestro lado. Inténtelo de nuevo más tarde.",
  },
};
