import type { FrameMessages } from "./frame-en";

/** The card frame's Brazilian Portuguese strings. */
export const framePtBR: FrameMessages = {
  title: "Dados do cartão",
  number: "Número do cartão",
  expiry: "Data de validade",
  expiryHint: "MM/AAAA",
  cvv: "Código de segurança",
  cvvHint: (digits: number) => `${digits} dígitos`,
  brand: {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    unknown: "",
  },
  numberInvalid: "O número do cartão não é válido.",
  expiryInvalid: "Digite a validade no formato MM/AAAA.",
  expired: "O cartão está vencido.",
  cvvInvalid: (digits: number) => `Digite o código de segurança de ${digits} dígitos.`,
  challengeTitle: "Confirme que você é uma pessoa",
  challengeStatus: {
    solving: "Um momento: verificando se este pagamento é seguro…",
    shown:
      "Muitos pagamentos com cartão estão sendo tentados neste formulário agora. Conclua a verificação abaixo e sua doação continuará.",
    checking: "Obrigado. Verificando seu cartão…",
    failed: "A verificação não foi aprovada, então nada foi cobrado. Tente novamente.",
  },
  refused: "Este formulário de cartão não pode ser usado nesta página.",
};
