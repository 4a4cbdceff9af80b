import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { changeLanguage } from './i18n';
import { settingsStore } from './store/settings';
import { installErrorHandler } from './utils/errorHandler';
import { registerServiceWorker } from './utils/serviceWorker';
import './styles.css';

installErrorHandler();
void changeLanguage(settingsStore.get().language);
registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
