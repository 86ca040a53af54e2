import type { Sql } from './sql.js';

/**
 * Copies a workflow of the project, disabled, with its steps and transitions (new ids, the links
 * mapped onto them) in one statement; false when the project has no such workflow. The copy has
 * no graph snapshot until it is enabled, so nothing runs it meanwhile.
 */
export async function copyWorkflow(
  sql: Sql,
  { projectId, workflowId, copyId }: { projectId: string; workflowId: string; copyId: string },
): Promise<boolean> {
  const [row] = await sql.query<{ copied: number }>(
    `WITH source AS (SELECT * FROM workflows WHERE id = $1 AND project_id = $2),
     copy AS (
       INSERT INTO workflows (id, project_id, name, description, trigger_type, trigger_event,
                              trigger_segment_id, trigger_key, enabled, allow_reentry,
                              created_at, updated_at)
       SELECT $3, project_id, left(name || ' (copy)', 200), description, trigger_type,
              trigger_event, trigger_segment_id, trigger_key, false, allow_reentry, now(), now()
         FROM source
       RETURNING id),
     step_ids AS (
       SELECT s.id AS old_id, uuid_generate_v7() AS new_id
         FROM workflow_steps s JOIN source ON s.workflow_id = source.id),
     steps AS (
       INSERT INTO workflow_steps (id, workflow_id, type, name, config, position, created_at,
                                   updated_at)
       SELECT m.new_id, copy.id, s.type, s.name, s.config, s.position, s.created_at, now()
         FROM workflow_steps s JOIN step_ids m ON m.old_id = s.id CROSS JOIN copy
       RETURNING id),
     transitions AS (
       INSERT INTO workflow_transitions (id, workflow_id, from_step_id, to_step_id, branch,
                                         created_at)
       SELECT uuid_generate_v7(), copy.id, f.new_id, n.new_id, t.branch, t.created_at
         FROM workflow_transitions t
         JOIN step_ids f ON f.old_id = t.from_step_id
         JOIN step_ids n ON n.old_id = t.to_step_id
         CROSS JOIN copy
       RETURNING id)
     SELECT (SELECT count(*) FROM copy)::int AS copied,
            (SELECT count(*) FROM steps) + (SELECT count(*) FROM transitions) AS parts`,
    [workflowId, projectId, copyId],
  );
  return (row?.copied ?? 0) > 0;
}
