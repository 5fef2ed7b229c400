import type { DonateLaterMessages } from "./donate-later-en";

/** The `donateLater` section of the Tagalog catalog (same shape as donate-later-en.ts). */
export const donateLaterTl: DonateLaterMessages = {
  monthlyPrompt: (amount: string) => `Gawin na lang bang ${amount} kada buwan?`,
  monthlyPromptWhy: "Natutulungan kami ng buwanang donasyon na magplano nang maaga.",
  monthlyYes: (amount: string) => `Oo, ${amount} kada buwan`,
  monthlyNo: (amount: string) => `Hindi, ${amount} nang isang beses`,
  donorLegend: "Ang iyong mga detalye",
  fullName: "Buong pangalan",
  email: "Email",
  phone: "Telepono",
  street: "Address ng kalye",
  city: "Lungsod",
  state: "Estado o probinsya",
  country: "Bansa",
  zip: "ZIP code ng address",
  postalCode: "Postal code ng address",
  cardLegend: "Kard",
  cardFrameTitle: "Mga detalye ng kard",
  cardFrameFailed: "Hindi nag-load ang form ng kard. Paki-reload ang pahina, o magbigay sa ibang paraan.",
  optionsLegend: "Mga opsyon",
  anonymous: "Gawing anonymous ang aking donasyon",
  pledgeWall: "Ipakita ang aking donasyon sa pledge wall",
  memo: "Mensahe",
  dedicate: "Ialay ang aking donasyon sa isang tao",
  dedicationKind: "Pag-aalay",
  dedicationKinds: { honor: "Bilang parangal kay", memory: "Bilang alaala kay" },
  dedicationName: "Ang kanyang pangalan",
  dedicationEmail: "Ipaalam sa isang tao ang aking donasyon sa email",
  smsOptIn: (program: string) => `I-text ako ng mga update mula sa ${program}`,
  smsDisclosure: (program: string) =>
    `Opsiyonal. Sa paglalagay ng tsek sa kahong ito, pumapayag kang tumanggap ng paulit-ulit at awtomatikong text message mula sa ${program} sa numero ng telepono sa itaas. Hindi kondisyon ang pagpayag sa pag-donate. Nag-iiba ang dalas ng mensahe. Maaaring may singil sa mensahe at data. Mag-reply ng HELP para sa tulong, STOP para huminto.`,
  smsProgramFallback: "ang organisasyong ito",
  errors: {
    email: "Maglagay ng email address gaya ng name@example.org.",
    phone: "Maglagay ng numero ng telepono sa US o Canada.",
    smsPhone: "Ilagay ang iyong mobile number para makatanggap ng mga text message.",
    zip: "Maglagay ng ZIP code gaya ng 12345.",
    postalCode: "Maglagay ng postal code.",
    country: "Pumili ng bansa.",
    street: "Paikliin ang address ng kalye.",
    city: "Paikliin ang lungsod.",
    state: "Paikliin ang estado o probinsya.",
    memo: (max: number) => `Panatilihing mas maikli sa ${max} character ang mensahe.`,
    dedicationName: "Ilagay ang pangalan ng taong pinaparangalan o inaalala ng iyong donasyon.",
    dedicationNameInvalid: (max: number) => `Maglagay ng pangalang hanggang ${max} character, walang < o >.`,
    dedicationTooLong:
      "Paikliin ang mensahe o ang pag-aalay: masyadong mahaba ang mga ito kung pagsasamahin.",
    card: "Suriin ang mga detalye ng iyong kard.",
  },
  outcome: {
    successTitle: "Salamat!",
    success: (amount: string, per: string) =>
      per ? `Natuloy ang iyong donasyong ${amount} ${per}.` : `Natuloy ang iyong donasyong ${amount}.`,
    transaction: "ID ng transaksyon",
    dedicated: {
      honor: (name: string) => `Bilang parangal kay ${name}.`,
      memory: (name: string) => `Bilang alaala kay ${name}.`,
    },
    again: "Magbigay ng isa pang donasyon",
    declined:
      "Tinanggihan ang iyong kard, kaya walang siningil. Suriin ang mga detalye ng kard o gumamit ng ibang kard.",
    paymentFailed: "Hindi naproseso ang bayad, kaya walang siningil. Pakisubukan ang ibang kard.",
    pendingTitle: "Hindi namin makumpirma ang iyong donasyon",
    pending:
      "Maaaring natuloy ito, kaya huwag nang mag-donate muli. Kung makikipag-ugnayan ka sa organisasyon, ibigay sa kanila ang reference na ito:",
    reference: "Numero ng reference",
    asking: "Sinusuri namin ito sa serbisyo ng pagbabayad; kusang mag-a-update ang pahinang ito.",
    notFound: "Hindi na namin mahanap ang donasyong ito. Pakibigay sa organisasyon ang reference na ito.",
    gaveUp:
      "Hindi pa rin namin ito makumpirma. Pakibigay sa organisasyon ang reference na ito bago ka mag-donate muli.",
    notCharged: "Hindi natuloy ang iyong donasyon, kaya walang siningil. Maaari mong subukang muli.",
    inProgress: "Pinoproseso pa ang iyong donasyon. Maghintay sandali, saka subukang muli.",
    rateLimited:
      "Masyadong maraming donasyon mula sa network na ito ngayon. Subukang muli pagkalipas ng isang minuto.",
    checking: "Sinusuri… Kung matagal, subukang muli pagkalipas ng isang minuto, o patayin ang Wi-Fi.",
    tooManyDeclines:
      "Masyadong maraming tinanggihang kard mula sa network na ito, kaya walang siningil. Pakisubukang muli mamaya.",
    invalidPeer: "Hindi bahagi ng kampanyang ito ang fundraiser o koponang iyon. Pumili ng iba o alisin ito.",
    failed: "Nagkaroon ng problema sa aming panig. Pakisubukang muli mamaya.",
  },
};
