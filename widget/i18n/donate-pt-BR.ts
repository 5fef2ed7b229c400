import type { DonateMessages } from "./donate-en";
import { plural } from "./plural";

/** The `donate` section of the Brazilian Portuguese catalog (same shape as donate-en.ts). */
export const donatePtBR: DonateMessages = {
  heading: "Faça uma doação",
  loading: "Carregando o formulário de doação…",
  frequencyLegend: "Frequência",
  frequency: { once: "Uma vez", monthly: "Mensal", quarterly: "Trimestral", annually: "Anual" },
  per: { once: "", monthly: "por mês", quarterly: "por trimestre", annually: "por ano" },
  amountLegend: "Valor",
  otherAmount: "Outro",
  otherAmountLabel: "Outro valor",
  amountRange: (min: string, max: string) => `Entre ${min} e ${max}.`,
  coverFee: (fee: string) => `Adicionar ${fee} para cobrir a taxa de processamento`,
  coverFeeAny: "Adicionar a taxa de processamento à minha doação",
  feeIncluded: (fee: string) => `Inclui ${fee} para cobrir a taxa de processamento.`,
  feeIncludedAny: "Inclui a taxa de processamento.",
  peerLabel: "Doe em apoio a um arrecadador ou equipe",
  peerHint: "Digite um nome e escolha na lista.",
  peerSearching: "Buscando…",
  peerNone: "Nenhum arrecadador ou equipe corresponde.",
  peerCount: (count: number) =>
    plural("pt-BR", count, { one: `${count} resultado.`, other: `${count} resultados.` }),
  peerTeam: "Equipe",
  peerTeamWord: /\b(equipe|time|team)\b/i,
  peerSupporting: (name: string) => `Sua doação apoia ${name}.`,
  peerRaised: (raised: string, goal: string | null) =>
    goal ? `${raised} arrecadados de ${goal}.` : `${raised} arrecadados até agora.`,
  peerRemove: "Remover",
  peerFailed: "O arrecadador ou a equipe indicada nesta página não carregou.",
  peerRetry: "Tentar novamente",
  steps: ["Etapa 1 de 3: Sua doação", "Etapa 2 de 3: Seus dados", "Etapa 3 de 3: Pagamento"],
  next: "Próximo",
  back: "Voltar",
  submit: (total: string, per: string) => (per ? `Doar ${total} ${per}` : `Doar ${total}`),
  submitting: "Processando sua doação…",
  errors: {
    amount: "Escolha ou digite um valor.",
    amountRange: (min: string, max: string) => `Digite um valor entre ${min} e ${max}.`,
    peer: "Escolha um arrecadador ou equipe da lista.",
    field: "Verifique este campo.",
    required: "Preencha este campo.",
  },
};
