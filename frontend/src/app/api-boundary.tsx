import { useEffect, type ReactNode } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { api } from '../lib/api';
import { apiConnected, dynamicMiddleware, rootReducer, type RootState } from './store';

// Loaded with the first page that calls the API: from then on every store has the
// API's reducer and middleware (stores created later get its state at creation).
rootReducer.inject(api);
dynamicMiddleware.addMiddleware(api.middleware);

const selectConnected = (state: RootState): boolean => api.reducerPath in state;

/** Renders its children once the store can serve their RTK Query hooks. */
export interface ApiBoundaryProps {
  children: ReactNode;
  fallback?: ReactNode;
}

export function ApiBoundary({ children, fallback = null }: ApiBoundaryProps) {
  const connected = useSelector(selectConnected);
  const dispatch = useDispatch();

  useEffect(() => {
    // A store created before the API was injected builds the API's state on its next action.
    if (!connected) dispatch(apiConnected());
  }, [connected, dispatch]);

  return connected ? children : fallback;
}
