export { ensureDemoAdmin, type DemoAdmin } from './user.service';
export { UserModel, type User } from './user.model';
export { hashPassword, verifyPassword } from './password';
