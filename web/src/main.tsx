import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { changeLanguage } from './i18n';
import { settingsStore } from './store/settings';
import { installErrorHandler } from './utils/errorHandler';
import { adoptOAuthReturn } from './utils/oauthReturn';
import { registerServiceWorker } from './utils/serviceWorker';
import { hashPath, prefetchRoute } from './router/prefetch';
import { userStore } from './store/user';
import './styles.css';

const root = document.getElementById('root')!;

function start() {
  installErrorHandler();
  // Before the router reads the URL: a social-login return lands on #/callback.
  adoptOAuthReturn();
  void changeLanguage(settingsStore.get().language);
  // Signed in: the page's code and first data load beside the session.
  if (userStore.get().token) prefetchRoute(hashPath(window.location.hash));
  registerServiceWorker();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// public/browser-check.js found this browser lacking what the code needs and said so in #root: nothing to start.
if (!root.hasAttribute('data-unsupported')) start();
