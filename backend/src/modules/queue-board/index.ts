export { QUEUE_BOARD_PATH, QUEUE_BOARD_SESSION_PATH, queueBoard } from './queue-board';
