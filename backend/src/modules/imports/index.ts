export { importRoutes, IMPORT_UPLOAD_PATH } from './import.routes';
