/**
 * A clock the test moves: `Date.now()`, which the client reads for every deadline, retry
 * budget and wait, runs `advance`d ahead of real time, so a test can spend minutes of the
 * client's time in no real time at all, and a bound on the client's behaviour never rests
 * on how fast a loaded machine runs. Timers stay real: a test moves the clock only between
 * a request's answer and the next one (the client's logger line of an answer is such a
 * moment), never while a request is in flight.
 */
import { afterEach } from "vitest";

const realNow = Date.now;
let offset = 0;

afterEach(() => {
  Date.now = realNow;
  offset = 0;
});

/** Makes `Date.now()` the test's clock until the test ends; returns the function that moves it ahead by `ms`. */
export function movableClock(): (ms: number) => void {
  Date.now = () => realNow() + offset;
  return (ms) => {
    offset += ms;
  };
}
