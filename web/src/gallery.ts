// The gallery (gallery.html; web/README.md, "Gallery"): every game screen in each key state,
// in every language, drawn from real engine views stored as fixtures (src/gallery/fixtures,
// written by scripts/game_fixtures.py). Static files only: no server, no socket.
import { mount } from 'svelte';
import './app.css';
import Gallery from './gallery/Gallery.svelte';
import { initI18n } from './lib/i18n.svelte';
import { settings } from './lib/settings.svelte';

// pictures, not play: nothing moves (not stored: the reader's own settings stay as they are)
settings.animations = false;
settings.confirm = false;
void initI18n().then(() => {
  mount(Gallery, { target: document.getElementById('app')! });
});
