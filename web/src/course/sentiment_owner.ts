// The engine worker has one sentiment session, and two course demos train in it (lesson 10's
// sentiment model and "your pooling in the model"): the demo that trained last owns the model.
// A demo whose model was replaced since must train again before it can read it.
let owner = 0;
let next = 1;

/** Claims the session for a demo about to train; returns its token. */
export function claimSentimentSession(): number {
  owner = next++;
  return owner;
}

/** True while the demo holding `token` is the last one that trained. */
export function ownsSentimentSession(token: number): boolean {
  return token !== 0 && token === owner;
}
