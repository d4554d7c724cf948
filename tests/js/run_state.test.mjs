// The run state machine the training views share (web/src/views/run_state.ts): which events each
// state allows, where they lead, and which buttons each state enables. The buttons themselves
// (run_controls.ts) are exercised by the Studio, Seq2seq and Transformer browser tests.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let runState;

before(async () => {
  loaded = await loadWebModules('/src/views/run_state.ts');
  [runState] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

const STATES = ['idle', 'preparing', 'training', 'paused', 'finished', 'cancelled', 'failed', 'diverged'];
const EVENTS = ['prepare', 'start', 'pause', 'resume', 'finish', 'cancel', 'fail', 'diverge'];

test('run_state.a run goes idle → preparing → training ⇄ paused → an end, and can start again', () => {
  const { transition } = runState;
  const walk = (events) => events.reduce((state, event) => transition(state, event), 'idle');
  assert.equal(walk(['prepare', 'start', 'pause', 'resume', 'finish']), 'finished');
  assert.equal(walk(['prepare', 'start', 'pause', 'cancel']), 'cancelled');
  assert.equal(walk(['prepare', 'start', 'diverge']), 'diverged');
  assert.equal(walk(['prepare', 'fail']), 'failed', 'a model the engine refuses fails while preparing');
  assert.equal(walk(['prepare', 'finish']), 'finished', 'a loaded model ends its preparation');
  for (const end of ['finished', 'cancelled', 'failed', 'diverged'])
    assert.equal(transition(end, 'prepare'), 'preparing');
});

test('run_state.events a state does not allow are refused (null), never a silent jump', () => {
  const { transition } = runState;
  // Every (state, event) pair: the allowed ones listed, all others null.
  const allowed = {
    idle: { prepare: 'preparing', fail: 'failed' },
    preparing: { start: 'training', finish: 'finished', cancel: 'cancelled', fail: 'failed', diverge: 'diverged' },
    training: { pause: 'paused', finish: 'finished', cancel: 'cancelled', fail: 'failed', diverge: 'diverged' },
    paused: { resume: 'training', finish: 'finished', cancel: 'cancelled', fail: 'failed', diverge: 'diverged' },
    finished: { prepare: 'preparing', fail: 'failed' },
    cancelled: { prepare: 'preparing', fail: 'failed' },
    failed: { prepare: 'preparing', fail: 'failed' },
    diverged: { prepare: 'preparing', fail: 'failed' },
  };
  for (const state of STATES)
    for (const event of EVENTS)
      assert.equal(transition(state, event), allowed[state][event] ?? null, `${state} + ${event}`);
});

test('run_state.busy states lock the settings; buttons follow the state', () => {
  const { isBusy, enabledControls } = runState;
  assert.deepEqual(
    STATES.filter((s) => isBusy(s)),
    ['preparing', 'training', 'paused'],
  );
  assert.deepEqual(enabledControls('idle'), { train: true, pause: false, resume: false, cancel: false });
  assert.deepEqual(enabledControls('preparing'), { train: false, pause: false, resume: false, cancel: false });
  assert.deepEqual(enabledControls('training'), { train: false, pause: true, resume: false, cancel: true });
  assert.deepEqual(enabledControls('paused'), { train: false, pause: false, resume: true, cancel: true });
  assert.deepEqual(enabledControls('diverged'), { train: true, pause: false, resume: false, cancel: false });
});
