import { effect } from "@preact/signals-core";
import { Component, type ComponentChildren } from "preact";

/**
 * A component that renders again whenever a signal it read while rendering changes. This is
 * what @preact/signals does for every component by patching Preact; the widget does it for
 * the few components that read its models' signals, which keeps widget.js under budget.
 * (Plain components below them get what they need as props.)
 *
 * @example
 * class Total extends Reactive<{ model: DonationModel }> {
 *   view({ model }) { return <p>{model.totalCents.value}</p>; }
 * }
 */
export abstract class Reactive<P = object> extends Component<P> {
  #stop?: () => void;

  abstract view(props: P): ComponentChildren;

  override render(): ComponentChildren {
    const { props } = this;
    this.#stop?.();
    let children: ComponentChildren;
    let first = true;
    // The first run renders and records which signals were read; a later run means one changed.
    this.#stop = effect(() => {
      if (first) children = this.view(props);
      else this.forceUpdate();
      first = false;
    });
    return children;
  }

  override componentWillUnmount(): void {
    this.#stop?.();
  }
}

/**
 * A function component that reads signals, made reactive.
 *
 * @example
 * export const Total = reactive(({ model }: { model: DonationModel }) => <p>{model.totalCents.value}</p>);
 */
export function reactive<P>(view: (props: P) => ComponentChildren) {
  return class extends Reactive<P> {
    override view(props: P): ComponentChildren {
      return view(props);
    }
  };
}

/** A ref that focuses its element once, as it enters the page (a stable function, so only then). */
export const focusOnMount = (element: HTMLElement | null): void => element?.focus();
