// Train / Pause / Resume / Cancel and the status line of a view that trains, driven by the one
// RunState machine (run_state.ts). The view places the buttons and the status where its layout
// wants them, says what each button does, and hears every state change (to lock its own inputs).
import { el } from './dom';
import { enabledControls, isBusy, transition, type RunEvent, type RunState } from './run_state';

export interface RunControlsOptions {
  /** Element ids (the Studio's tests and labels use them); none by default. */
  ids?: Partial<Record<'train' | 'pause' | 'resume' | 'cancel' | 'status', string>>;
  /** The element whose data-state attribute shows the state (tests wait on it). */
  stateHost: HTMLElement;
  /** The status line's text per state (a state without one shows its name). */
  texts: Partial<Record<RunState, string>>;
  onTrain: () => void;
  /** Pause and resume the run's workers; without them the view has no Pause / Resume buttons. */
  pause?: () => Promise<void>;
  resume?: () => Promise<void>;
  /** Asks the run to stop; the run's own promise then ends it ('cancel'). */
  cancel: () => Promise<void> | void;
  /** A pause, resume or cancel that failed. */
  onError: (error: unknown) => void;
  /** After every state change (the view locks or unlocks its own inputs here). */
  onChange?: (state: RunState, busy: boolean) => void;
}

export class RunControls {
  readonly train: HTMLButtonElement;
  readonly pause: HTMLButtonElement;
  readonly resume: HTMLButtonElement;
  readonly cancel: HTMLButtonElement;
  readonly status: HTMLParagraphElement;
  /** The buttons this view has (Pause and Resume only where the run can pause). */
  readonly buttons: HTMLButtonElement[];
  private current: RunState = 'idle';

  constructor(private readonly options: RunControlsOptions) {
    const ids = options.ids ?? {};
    const button = (text: string, id?: string) =>
      el('button', { type: 'button', textContent: text, disabled: true, ...(id ? { id } : {}) });
    this.train = button('Train', ids.train);
    this.train.className = 'primary';
    this.pause = button('Pause', ids.pause);
    this.resume = button('Resume', ids.resume);
    this.cancel = button('Cancel', ids.cancel);
    this.status = el('p', { className: 'train-status', role: 'status', ...(ids.status ? { id: ids.status } : {}) });
    this.buttons = options.pause ? [this.train, this.pause, this.resume, this.cancel] : [this.train, this.cancel];
    this.train.addEventListener('click', () => options.onTrain());
    this.pause.addEventListener('click', () => void this.act(options.pause, 'pause'));
    this.resume.addEventListener('click', () => void this.act(options.resume, 'resume'));
    this.cancel.addEventListener('click', () => void this.act(options.cancel));
    // The view calls refresh() once it is built (onChange may reach parts built after this).
    this.show('idle', undefined, false);
  }

  get state(): RunState {
    return this.current;
  }

  busy(): boolean {
    return isBusy(this.current);
  }

  /**
   * Moves the run on by `event` and shows `text` (else the state's own text) in the status
   * line; an event the state does not allow changes nothing and returns false.
   */
  send(event: RunEvent, text?: string): boolean {
    const next = transition(this.current, event);
    if (next === null) return false;
    this.show(next, text);
    return true;
  }

  /** Shows the current state again (a view whose own inputs depend on more than the state). */
  refresh(text?: string): void {
    this.show(this.current, text);
  }

  private show(state: RunState, text?: string, notify = true): void {
    this.current = state;
    this.options.stateHost.dataset.state = state;
    const enabled = enabledControls(state);
    this.train.disabled = !enabled.train;
    this.pause.disabled = !enabled.pause;
    this.resume.disabled = !enabled.resume;
    this.cancel.disabled = !enabled.cancel;
    this.status.textContent = text ?? this.options.texts[state] ?? state;
    if (notify) this.options.onChange?.(state, isBusy(state));
  }

  private async act(action: (() => Promise<void> | void) | undefined, event?: RunEvent): Promise<void> {
    try {
      await action?.();
      if (event) this.send(event);
    } catch (error) {
      this.options.onError(error);
    }
  }
}
