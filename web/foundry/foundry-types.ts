// What the aoekit module adds to Foundry VTT v13, declared to @league-of-foundry-developers/
// foundry-vtt-types through its configuration interfaces, so that `tsc -p web/foundry`
// (make test-foundry-types) checks aoekit.mjs against them: its settings, its API on
// game.modules.get("aoekit").api, and its hook. Types only: not part of the module folder.
import type { Engine, Request, Result } from "./index.js";
import type { MergedTarget } from "./map.mjs";
import type { DrawTarget } from "./overlay.js";

/** The last evaluation (`api.last`), also what the `aoekit.evaluated` hook passes, less the template. */
export interface Evaluation {
  request: Request;
  /** The engine's whole answer (cells and lines included): read from the engine when first read. */
  readonly result: Result;
  /** One entry per TokenDocument (map.mjs mergeTargets): its document id, inArea, affected, reason, cover, bonus, caster. */
  targets: MergedTarget<DrawTarget>[];
  notation: string;
  /** The TokenDocument taken as the caster, or null. */
  casterId: string | null;
}

/** game.modules.get("aoekit").api */
export interface AoekitApi {
  /** Resolves once the engine (and the overlay) are loaded; null before the "ready" hook. */
  readonly ready: Promise<unknown> | null;
  /** The engine that evaluates, once ready: aoekit-overlay.wasm's when drawing is on, else aoekit.wasm's (index.js load()). */
  readonly engine: Engine | null;
  /** The last evaluation, or null. */
  readonly last: Evaluation | null;
  /** Evaluates a MeasuredTemplateDocument (or a RegionDocument of one circle or rectangle) now (after ready) and shows it; returns the last evaluation. */
  evaluate(template: foundry.documents.MeasuredTemplateDocument | foundry.documents.RegionDocument, options?: { target?: boolean }): Evaluation | null;
  /** Forgets the template shown and erases the drawing. */
  clear(): void;
}

declare global {
  /** Everything aoekit.mjs does runs in or after the "init" hook (its top level only adds hooks). */
  interface AssumeHookRan {
    init: never;
  }

  interface SettingConfig {
    "aoekit.rules": "auto" | "tdgs" | "drawsteel" | "circle50" | "dnd5e" | "pf2e";
    "aoekit.walls": "both" | "move" | "sight";
    "aoekit.autoTarget": boolean;
    "aoekit.overlay": boolean;
    "aoekit.coverLines": boolean;
    "aoekit.chatCards": boolean;
    "aoekit.coverStatus": boolean;
  }

  interface ModuleConfig {
    aoekit: { api: AoekitApi };
  }

  interface RequiredModules {
    aoekit: true;
  }

  /**
   * Other modules' and systems' flags map.mjs reads: wall-height's wall bottom and top, Levels'
   * template elevation, aoekit's own (an elevation of 0 that is meant), and the caster and shape
   * that dnd5e's and pf2e's templates carry (map.mjs TemplateFlags).
   */
  interface FlagConfig {
    MeasuredTemplate: {
      levels?: { elevation?: number | null };
      aoekit?: { elevation?: boolean };
      dnd5e?: {
        origin?: string | null;
        item?: string | null;
        dimensions?: { size?: number | string | null; width?: number | string | null; height?: number | string | null; adjustedSize?: boolean | null } | null;
      };
      pf2e?: { origin?: { actor?: string | null; uuid?: string | null } | null; areaShape?: string | null };
    };
    Wall: { "wall-height"?: { bottom?: number | null; top?: number | null }; "draw-steel"?: { blocksLineOfEffect?: boolean | null } };
    /**
     * aoekit's own (a region read as a template), the Draw Steel system's ability a region was
     * placed for (MetaMorphic-Digital/draw-steel: flags["draw-steel"].abilitySource, an item's
     * uuid), and the systems' caster flags as on templates.
     */
    Region: {
      aoekit?: { area?: boolean; elevation?: boolean };
      "draw-steel"?: { abilitySource?: string | null };
      dnd5e?: { origin?: string | null; item?: string | null };
      pf2e?: { origin?: { actor?: string | null; uuid?: string | null } | null; areaShape?: string | null };
    };
  }
}

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  namespace Hooks {
    interface HookConfig {
      /** Called after every evaluation. */
      "aoekit.evaluated": (event: Evaluation & { template: foundry.documents.MeasuredTemplateDocument | foundry.documents.RegionDocument }) => void;
    }
  }
}
