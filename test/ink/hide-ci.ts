/**
 * Ink writes no frames at all where it thinks it runs in CI (is-in-ci, read once when Ink loads),
 * as under .ci/run's CI=true. A test that renders Ink in its own process hides those variables
 * before it first imports Ink (dynamically, after this call) and puts them back when it is done.
 */
export function hideCiFromInk(): () => void {
  const saved: Record<string, string | undefined> = {};
  for (const key of Object.keys(process.env)) {
    if (key === 'CI' || key === 'CONTINUOUS_INTEGRATION' || key.startsWith('CI_')) {
      saved[key] = process.env[key];
      delete process.env[key];
    }
  }
  return () => Object.assign(process.env, saved);
}
