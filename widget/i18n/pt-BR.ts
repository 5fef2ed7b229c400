import { donatePtBR } from "./donate-pt-BR";
import { donateLaterPtBR } from "./donate-later-pt-BR";
import type { Messages } from ".";
import { plural } from "./plural";

export { donatePtBR, donateLaterPtBR };

/** The Brazilian Portuguese catalog, section by section, in en.ts's shape. */

export const commonPtBR: Messages["common"] = {
  unavailable:
    "Este formulário não está disponível no momento. Entre em contato com a organização para doar ou se inscrever.",
  optional: "opcional",
  networkError: "Não foi possível conectar ao servidor. Verifique sua conexão e tente novamente.",
  upstreamDown:
    "O serviço não está respondendo no momento. Nada foi cobrado; tente novamente em alguns minutos.",
  rateLimited: "Tentativas demais a partir desta conexão. Aguarde alguns minutos e tente novamente.",
  fixErrors: (count: number) =>
    plural("pt-BR", count, { one: `Corrija ${count} campo.`, other: `Corrija ${count} campos.` }),
  firstName: "Nome",
  lastName: "Sobrenome",
  firstNameRequired: "Informe seu nome.",
  lastNameRequired: "Informe seu sobrenome.",
  terms: "Termos de uso",
  privacy: "Política de Privacidade",
  language: "Idioma",
};

export const optinPtBR: Messages["optin"] = {
  heading: "Receba novidades por SMS",
  intro: (program: string) => `Inscreva-se para receber mensagens de texto de ${program}.`,
  allRequired: "Todos os campos são obrigatórios.",
  mobileLabel: "Número de celular",
  mobileHint: "Um celular dos EUA ou do Canadá, como (555) 010-1234.",
  consentLabel: (program: string) => `Aceito receber mensagens de texto de ${program}.`,
  disclosure: (program: string) =>
    `Ao se inscrever, você aceita receber mensagens de texto automáticas e recorrentes de ${program} no número de celular informado. O consentimento não é condição para nenhuma compra ou doação. A frequência das mensagens varia. Podem ser cobradas tarifas de mensagens e dados. Responda HELP para obter ajuda ou STOP para cancelar. Consulte nossos`,
  and: "e nossa",
  submit: "Inscrever-me",
  submitting: "Inscrevendo…",
  textInstead: (keyword: string, shortcode: string) => `ou envie ${keyword} para ${shortcode}`,
  mobileRequired: "Informe seu número de celular.",
  mobileInvalid: "Informe um celular dos EUA ou do Canadá com 10 dígitos, como (555) 010-1234.",
  nameTooLong: "Use no máximo 100 caracteres.",
  consentRequired: "Marque a caixa para aceitar receber mensagens de texto.",
  successHeading: "Inscrição feita",
  successBody: (program: string, number: string) =>
    `${program} enviará mensagens para ${number}. Responda HELP para obter ajuda ou STOP para cancelar a qualquer momento.`,
  rejected:
    "Não foi possível inscrever este número. Ele pode já estar inscrito ou não pode receber estas mensagens.",
  rejoin: (keyword: string, shortcode: string) =>
    `Se você já respondeu STOP, envie ${keyword} para ${shortcode} para se inscrever de novo.`,
  upstreamDown:
    "O serviço de inscrição não está respondendo no momento. Você não foi inscrito; tente novamente em alguns minutos.",
  failed: "Algo deu errado e você não foi inscrito. Tente novamente.",
};

export const goalPtBR: Messages["goal"] = {
  raised: (amount: string) => `${amount} arrecadados`,
  ofGoal: (goal: string) => `da nossa meta de ${goal}`,
  donors: (count: number) =>
    plural("pt-BR", count, {
      one: `${count.toLocaleString("pt-BR")} doador`,
      other: `${count.toLocaleString("pt-BR")} doadores`,
    }),
  barLabel: "Progresso rumo à meta",
  barText: (raised: string, goal: string, percent: number) => `${raised} de ${goal}, ${percent} por cento`,
  unavailable: "O progresso da campanha não está disponível no momento.",
};

export const buttonPtBR: Messages["button"] = {
  label: "Doar",
  close: "Fechar",
};

export const wallPtBR: Messages["wall"] = {
  label: "Doações recentes",
  anonymous: "Anônimo",
  credited: (name: string) => `para ${name}`,
  empty: "Seja a primeira pessoa a doar.",
  unavailable: "As doações recentes não estão disponíveis no momento.",
  reconnecting: (age: string) => `Reconectando… atualizado ${age}`,
};

export const leaderboardPtBR: Messages["leaderboard"] = {
  teams: "Melhores equipes",
  fundraisers: "Melhores arrecadadores",
  ofGoal: (raised: string, goal: string) => `${raised} de ${goal}`,
  raised: (raised: string) => `${raised} arrecadados`,
  give: "Doar",
  giveTo: (name: string) => `Doar para ${name}`,
  empty: "Ninguém arrecadou nada ainda.",
  unavailable: "A classificação não está disponível no momento.",
  reconnecting: (age: string) => `Reconectando… atualizado ${age}`,
};

/** Every section (see en.ts). */
export const ptBR: Messages = {
  common: commonPtBR,
  donate: donatePtBR,
  donateLater: donateLaterPtBR,
  optin: optinPtBR,
  goal: goalPtBR,
  button: buttonPtBR,
  wall: wallPtBR,
  leaderboard: leaderboardPtBR,
};
