// The page's elements in the language of `?locale=` (e2e/languages.spec.ts), set before widget.js runs.
const locale = new URLSearchParams(location.search).get("locale");
if (locale)
  for (const element of document.querySelectorAll(
    "givekit-goal, givekit-donate, givekit-optin, givekit-wall",
  ))
    element.setAttribute("locale", locale);
