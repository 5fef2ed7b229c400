import type { DonateMessages } from "./donate-en";

/** The `donate` section of the Spanish catalog (same shape as donate-en.ts). */
export const donateEs: DonateMessages = {
  heading: "Haga una donación",
  loading: "Cargando el formulario de donación…",
  frequencyLegend: "Frecuencia",
  frequency: { once: "Una vez", monthly: "Mensual", quarterly: "Trimestral", annually: "Anual" },
  per: { once: "", monthly: "al mes", quarterly: "cada trimestre", annually: "al año" },
  amountLegend: "Monto",
  otherAmount: "Otro",
  otherAmountLabel: "Otro monto",
  amountRange: (min: string, max: string) => `Entre ${min} y ${max}.`,
  coverFee: (fee: string) => `Agregar ${fee} para cubrir el costo de procesamiento`,
  coverFeeAny: "Agregar el costo de procesamiento a mi donación",
  feeIncluded: (fee: string) => `Incluye ${fee} para cubrir el costo de procesamiento.`,
  feeIncludedAny: "Incluye el costo de procesamiento.",
  peerLabel: "Done en apoyo de un recaudador o equipo",
  peerHint: "Escriba un nombre y elija de la lista.",
  peerSearching: "Buscando…",
  peerNone: "Ningún recaudador o equipo coincide.",
  peerCount: (count: number) => (count === 1 ? "1 resultado." : `${count} resultados.`),
  peerTeam: "Equipo",
  peerTeamWord: /\b(equipo|team)\b/i,
  peerSupporting: (name: string) => `Su donación apoya a ${name}.`,
  peerRaised: (raised: string, goal: string | null) =>
    goal ? `${raised} recaudados de ${goal}.` : `${raised} recaudados hasta ahora.`,
  peerRemove: "Quitar",
  peerFailed: "No se cargó el recaudador o equipo que nombra esta página.",
  peerRetry: "Intentar de nuevo",
  steps: ["Paso 1 de 3: Su donación", "Paso 2 de 3: Sus datos", "Paso 3 de 3: Pago"],
  next: "Siguiente",
  back: "Atrás",
  submit: (total: string, per: string) => (per ? `Donar ${total} ${per}` : `Donar ${total}`),
  submitting: "Procesando su donación…",
  errors: {
    amount: "Elija o escriba un monto.",
    amountRange: (min: string, max: string) => `Escriba un monto entre ${min} y ${max}.`,
    peer: "Elija un recaudador o equipo de la lista.",
    field: "Revise este campo.",
    /** Un campo que la organización pide a todos, vacío. */
    required: "Complete este campo.",
  },
};
