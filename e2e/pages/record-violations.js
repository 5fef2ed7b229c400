// Every Content-Security-Policy violation on this page, for the tests to read.
window.cspViolations = [];
document.addEventListener(
  "securitypolicyviolation",
  (event) => window.cspViolations.push(`${event.effectiveDirective} ${event.blockedURI}`),
  true,
);
