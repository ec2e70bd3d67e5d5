// Until the package's `exports` map names these entries, this hook resolves the self-reference
// 'termsight' (and its drop-in subpaths) to the built files, so the founding example programs run as
// written. Used only by examples.test.ts, and only when the real self-reference does not work yet.
import { register } from 'node:module';

const dist = new URL('../../dist/', import.meta.url).href;
const targets = {
  termsight: `${dist}capability/index.js`,
  'termsight/supports-color': `${dist}compat/supports-color.js`,
  'termsight/supports-hyperlinks': `${dist}compat/supports-hyperlinks.js`,
  'termsight/terminal-link': `${dist}compat/terminal-link.js`,
};
const hooks = `const targets = ${JSON.stringify(targets)};
export async function resolve(specifier, context, next) {
  if (Object.hasOwn(targets, specifier)) return { url: targets[specifier], shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
