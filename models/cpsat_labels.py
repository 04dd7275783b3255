"""Distance labels maximised by CP-SAT: what the lost knight's ``distance`` model and the jump
game's ``layers`` model share.

Both label squares (cells) with integers bounded by "one more than a neighbour's label" and
maximise every label: at the optimum each label is the true distance. Bound propagation alone
proves that, so the solver runs without LP or presolve and follows a fixed strategy: the
variables in order, each at its largest value.
"""

from __future__ import annotations

from ortools.sat.python import cp_model_helper

__all__ = ["LABEL_PARAMETERS", "maximise_labels"]

#: Solver parameters of a label model: no LP, no presolve (it would spend its time on the
#: difference constraints), the model's own decision strategy followed as is.
LABEL_PARAMETERS: dict[str, object] = {
    "linearization_level": 0,
    "cp_model_presolve": False,
    "search_branching": cp_model_helper.SatParameters.FIXED_SEARCH,
}


def maximise_labels(proto: cp_model_helper.CpModelProto, count: int, target: int | None = None) -> None:
    """Objective and strategy of a label model whose labels are variables ``0 .. count - 1``:
    maximise their sum (CP-SAT minimises, so the negated sum with scaling -1), and decide
    them in order, each at its largest value.

    With a ``target``, only label ``target`` matters: it alone is maximised and decided first,
    then the others in order. Every feasible label is at most the true distance (induction
    along a shortest path), so the maximum of one label is its distance; and in any labelling
    where it is reached, the labels along a shortest path are tight (each is at least the next
    one less one, and at most its distance), so the path can be read back. A one-term objective
    costs nothing to propagate, where the sum of every label is a linear constraint over all of
    them, propagated at every decision.
    """
    rest = [v for v in range(count) if v != target]
    objective, order = (rest, rest) if target is None else ([target], [target, *rest])
    proto.objective.vars.extend(objective)
    proto.objective.coeffs.extend([-1] * len(objective))
    proto.objective.scaling_factor = -1
    strategy = proto.search_strategy.add()
    strategy.variables.extend(order)
    strategy.variable_selection_strategy = cp_model_helper.DecisionStrategyProto.CHOOSE_FIRST
    strategy.domain_reduction_strategy = cp_model_helper.DecisionStrategyProto.SELECT_MAX_VALUE
