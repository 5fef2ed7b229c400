import { defineGivekitElement } from "../shared/define-element";
import { OPTIN_ATTRIBUTES, readOptinAttributes, type OptinProps } from "./attributes";
import { OptinForm } from "./OptinForm";
import css from "./optin.css?inline";

/**
 * Defines `<givekit-optin>`, the SMS opt-in form (once; later calls do nothing).
 *
 * @example
 * defineOptinElement();
 * // <givekit-optin list="Hope Alerts" program-name="Hope Shelter"
 * //   terms-url="https://example.org/sms-terms" privacy-url="https://example.org/privacy">
 * // </givekit-optin>
 */
export function defineOptinElement(): void {
  defineGivekitElement<OptinProps>({
    tag: "givekit-optin",
    attributes: OPTIN_ATTRIBUTES,
    css,
    readAttributes: (get) => readOptinAttributes(get),
    Component: OptinForm,
  });
}
