import '@fontsource-variable/inter/wght.css';
import '@fontsource-variable/cairo/wght.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain an element with id "root"');

// The app decides where a page starts (top, or its #anchor); the browser's own
// restoring would fight it once the sections below the hero arrive.
window.history.scrollRestoration = 'manual';

createRoot(container).render(
  <StrictMode>
    <AppProviders store={makeStore()}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
