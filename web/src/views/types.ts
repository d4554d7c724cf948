// What a view is to the app shell. A view is mounted once, on its first visit, and then kept
// (hidden while another view shows), so long work such as training carries on in the background.
import type { EngineBridge } from '../engine/bridge';

export interface ViewContext {
  engine: EngineBridge;
  /** Records the view's state in the URL without adding a history entry. */
  replaceParams(params: URLSearchParams): void;
}

export interface ViewInstance {
  readonly element: HTMLElement;
  /** Called when the view is shown, with the route's parameters (after back/forward too). */
  show(params: URLSearchParams): void;
}

export interface ViewDefinition {
  id: string; // the route: #/<id>
  title: string; // nav label and document title
  mount(context: ViewContext): ViewInstance;
}
