"""The family's encoders, one per metric (``FAMILY.encoders``): the STRIPS subsystem's
(:mod:`puzzleplan.strips.encoding`)."""
from ...strips.encoding.cost import CostEncoder
from ...strips.encoding.exists import ExistsSteps
from ...strips.encoding.steps import StepsEncoder

__all__ = ["CostEncoder", "ExistsSteps", "StepsEncoder"]
