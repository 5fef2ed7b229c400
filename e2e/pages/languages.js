// The page's elements in the language of `?locale=` (e2e/languages.spec.ts), allowed the languages
// of `?locales=` (their switch), and the page's own `lang` from `?lang=`, set before widget.js runs.
const params = new URLSearchParams(location.search);
if (params.has("lang")) document.documentElement.lang = params.get("lang");
for (const element of document.querySelectorAll("givekit-goal, givekit-donate, givekit-optin, givekit-wall"))
  for (const name of ["locale", "locales"])
    if (params.get(name)) element.setAttribute(name, params.get(name));
