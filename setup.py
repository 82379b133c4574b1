"""The package list, which pyproject.toml cannot say alone: ``instances/`` stays at the
repository's top and is installed as the package ``puzzleplan.instances`` (its data files
are listed in pyproject.toml's package-data)."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["puzzleplan", "puzzleplan.*"]) + ["puzzleplan.instances"],
      package_dir={"puzzleplan.instances": "instances"})
