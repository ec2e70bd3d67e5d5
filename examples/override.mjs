// When the guess is wrong, register the
// capability again under the same name and every later emit uses it.
import { capability, emit, register } from 'termsight';

const tmux = { env: { TERM: 'tmux-256color' }, isTTY: { stdout: true } };
const args = { text: 'Docs', url: 'https://x.dev' };

console.log(JSON.stringify(emit(tmux, 'link', args)));
register({ ...capability('link'), when: { tty: true, term: 'tmux-256color' } });
console.log(JSON.stringify(emit(tmux, 'link', args)));
