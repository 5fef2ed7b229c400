// Every givekit event the page hears, for the tests to read.
window.givekitEvents = [];
for (const type of ["givekit:ready", "givekit:donation", "givekit:subscribe", "givekit:error"]) {
  document.addEventListener(type, (event) => window.givekitEvents.push({ type, detail: event.detail }));
}
