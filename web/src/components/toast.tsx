import * as RadixToast from '@radix-ui/react-toast';
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

interface Toast {
  id: number;
  message: string;
  tone: 'ok' | 'error';
}

const ToastContext = createContext<(message: string, tone?: Toast['tone']) => void>(
  () => undefined,
);

export const useToast = () => useContext(ToastContext);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((message: string, tone: Toast['tone'] = 'ok') => {
    setToasts((list) => [...list, { id: Date.now() + Math.random(), message, tone }]);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      <RadixToast.Provider duration={5000}>
        {children}
        {toasts.map((t) => (
          <RadixToast.Root
            key={t.id}
            onOpenChange={(open) =>
              open ? undefined : setToasts((list) => list.filter((x) => x.id !== t.id))
            }
            className={`flex items-start gap-3 rounded-md border py-3 pr-2 pl-4 text-sm shadow-lg ${t.tone === 'error' ? 'border-danger/50 bg-panel text-danger' : 'border-line bg-panel text-fg'}`}
          >
            <RadixToast.Description className="min-w-0 flex-1 break-words">
              {t.message}
            </RadixToast.Description>
            {/* A toast can cover what is under it (an editor's corner): it closes at once. */}
            <RadixToast.Close
              className="-my-1 rounded p-1 leading-none text-muted hover:text-fg"
              aria-label="Dismiss notification"
            >
              ✕
            </RadixToast.Close>
          </RadixToast.Root>
        ))}
        <RadixToast.Viewport className="fixed right-4 bottom-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2" />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}
