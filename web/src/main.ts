import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { initI18n } from './lib/i18n.svelte';

void initI18n().then(() => {
  mount(App, { target: document.getElementById('app')! });
});
