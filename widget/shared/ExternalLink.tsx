import type { ComponentChildren } from "preact";

/**
 * A link that opens another page (the Terms, the privacy policy) in a new tab. Apart from
 * Field.tsx, which the donate form's first step reads: a bundler places a module whole, and the
 * form shows these links only in its later steps (later.ts's chunk).
 */
export function ExternalLink({ href, children }: { href: string; children: ComponentChildren }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" part="link">
      {children}
    </a>
  );
}
