// jest maps stylesheet and image imports here. A default export because that is
// how such files are imported (`import logo from './logo.svg'`).
const fileStub = 'test-file-stub';
export default fileStub;
