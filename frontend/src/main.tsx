import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { makeStore } from './app/store';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain an element with id "root"');

createRoot(container).render(
  <StrictMode>
    <AppProviders store={makeStore()}>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);
