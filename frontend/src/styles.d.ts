// Stylesheets are bundled by Vite (and stubbed in jest); importing one only has side effects.
declare module '*.css';
