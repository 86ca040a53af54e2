import {
  Background,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  useNodesState,
  useReactFlow,
  useStore,
  type Connection,
  type Edge,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo } from 'react';
import { toFlow, TRIGGER_ID, type GraphNode } from './graph-layout';
import { CanvasContext, NODE_TYPES, type CanvasInfo } from './step-node';
import type { Step, Transition } from './workflow-queries';

type CanvasProps = {
  trigger: string;
  steps: Step[];
  transitions: Transition[];
  info: CanvasInfo;
  editable: boolean;
  selectedId?: string;
  onSelect?: (id: string | undefined) => void;
  onConnect?: (connection: Connection) => void;
  onDeleteSteps?: (ids: string[]) => void;
  onDeleteTransitions?: (ids: string[]) => void;
  onMoveStep?: (id: string, position: { x: number; y: number }) => void;
  label: string;
};

/**
 * The workflow's graph on a React Flow canvas, laid out by dagre. Editable: connect handles to
 * add a transition, Delete/Backspace to remove the selection, drag to place a step. Read-only:
 * the same graph for an execution's path.
 */
export function WorkflowCanvas(props: CanvasProps) {
  // The provider outside the canvas lets the layout read the heights React Flow measured.
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}

function Canvas({
  trigger,
  steps,
  transitions,
  info,
  editable,
  selectedId,
  onSelect,
  onConnect,
  onDeleteSteps,
  onDeleteTransitions,
  onMoveStep,
  label,
}: CanvasProps) {
  const heights = useDrawnHeights();
  const flow = useMemo(
    () => toFlow(trigger, steps, transitions, heights),
    [trigger, steps, transitions, heights],
  );
  const [nodes, setNodes, onNodesChange] = useNodesState<GraphNode>(flow.nodes);
  const [edges, setEdges, onEdgesChange] = useEdgesState<Edge>(flow.edges);
  useEffect(() => {
    // A node keeps its measured size (React Flow measures it again when its content changes): a
    // node without one is measured anew, and the layout would see its height come and go.
    setNodes((drawn) => {
      const measured = new Map(drawn.map((n) => [n.id, n.measured]));
      return flow.nodes.map((n) => ({
        ...n,
        measured: measured.get(n.id),
        selected: n.id === selectedId,
      }));
    });
    setEdges(
      flow.edges.map((e) =>
        info.taken?.has(e.source === TRIGGER_ID ? `trigger->${e.target}` : e.id)
          ? {
              ...e,
              animated: true,
              style: { ...e.style, stroke: 'var(--color-accent)', strokeWidth: 2.5 },
            }
          : e,
      ),
    );
  }, [flow, selectedId, info.taken, setNodes, setEdges]);

  return (
    <CanvasContext.Provider value={info}>
      <div
        role="region"
        aria-label={label}
        className="h-[32rem] w-full overflow-hidden rounded-lg border border-line bg-surface lg:h-[40rem]"
      >
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          nodesDraggable={editable}
          nodesConnectable={editable}
          elementsSelectable
          deleteKeyCode={editable ? ['Delete', 'Backspace'] : null}
          onConnect={onConnect}
          onNodeClick={(_, node) => onSelect?.(node.id)}
          onEdgeClick={(_, edge) => {
            if (edge.source !== TRIGGER_ID) onSelect?.(edge.id);
          }}
          onPaneClick={() => onSelect?.(undefined)}
          onNodesDelete={(deleted) =>
            onDeleteSteps?.(deleted.map((n) => n.id).filter((id) => id !== TRIGGER_ID))
          }
          onEdgesDelete={(deleted) =>
            onDeleteTransitions?.(deleted.filter((e) => e.source !== TRIGGER_ID).map((e) => e.id))
          }
          onNodeDragStop={(_, node) => {
            if (node.id !== TRIGGER_ID) onMoveStep?.(node.id, node.position);
          }}
          fitView
          fitViewOptions={{ padding: 0.2 }}
          minZoom={0.2}
          proOptions={{ hideAttribution: true }}
        >
          <KeepGraphInView
            count={`${steps.length}:${transitions.length}:${[...heights.values()].join(',')}`}
          />
          <Background gap={20} />
          {/* Top left: a graph starts from one trigger, centred, so that corner stays empty. */}
          <Controls showInteractive={false} position="top-left" />
        </ReactFlow>
      </div>
    </CanvasContext.Provider>
  );
}

/**
 * The nodes' heights as React Flow measured them, rounded, as a map that changes only when a
 * height does (a string key keeps the store's every update from laying the graph out again).
 */
function useDrawnHeights(): ReadonlyMap<string, number> {
  const key = useStore((s) =>
    [...s.nodeLookup.values()]
      .filter((n) => n.measured.height !== undefined)
      .map((n) => `${n.id}=${Math.round(n.measured.height ?? 0)}`)
      .join(','),
  );
  return useMemo(
    () =>
      new Map(
        key
          .split(',')
          .filter(Boolean)
          .map((pair) => {
            const [id = '', height = '0'] = pair.split('=');
            return [id, Number(height)] as const;
          }),
      ),
    [key],
  );
}

/**
 * Fits the whole graph in view again when a step or link is added or removed or a step's height
 * changes (fitView is initial only),
 * and when the canvas changes size (a window resized, a phone turned), so no step is left
 * outside it.
 */
function KeepGraphInView({ count }: { count: string }) {
  const flow = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  useEffect(() => {
    const timer = setTimeout(() => void flow.fitView({ padding: 0.2, duration: 0 }), 50);
    return () => clearTimeout(timer);
  }, [count, width, height, flow]);
  return null;
}
