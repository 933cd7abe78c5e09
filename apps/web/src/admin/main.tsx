import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './console-app';
import { initConsoleI18n } from './i18n';
import '@/styles/global.css';
import './admin.css';
import './admin-forms.css';
import './admin-data.css';

void initConsoleI18n().then(() => {
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from admin.html');
  createRoot(root).render(
    <StrictMode>
      <ConsoleApp />
    </StrictMode>,
  );
});
